import Foundation
import WarbleAudio
import WarbleSpeech
import WarbleServer

/// A synthetic recognition backend: two models (English-only `whisper-tiny.en`, multilingual
/// `whisper-base`), and for any audio two segments that say what was asked. With `holdAfter: n` it
/// gives n segments, then waits until the test opens `gate` (or the transcription is cancelled).
/// With word timestamps asked for, each segment's words share its span evenly.
/// A prompt containing "BROKEN" fails with a model fault; "NOAUDIO" with the recogniser's bad-input error.
struct TranscriptionFakeBackend: TranscriptionBackend {
    static let models = [
        RecognitionModelDescription(id: "whisper-base", languages: ["en", "de", "fr"], canTranslate: true),
        RecognitionModelDescription(id: "whisper-tiny.en", languages: ["en"], canTranslate: false),
    ]

    var models = Self.models
    var holdAfter: Int?
    /// The language `detectLanguage` says it hears (nil: it cannot tell).
    var heardLanguage: String?
    let gate = Gate()
    let probe = Probe()

    /// What the backend saw.
    actor Probe {
        struct Call: Sendable {
            var model: String
            var options: TranscriptionOptions
            var frames: Int
            var sampleRate: Int
            var channels: Int
        }
        struct Counts: Sendable {
            var calls = 0, finished = 0, cancelled = 0
        }

        private(set) var calls: [Call] = []
        private var counts = Counts() {
            didSet {
                let met = watchers.filter { $0.condition(counts) }
                watchers.removeAll { $0.condition(counts) }
                for watcher in met { watcher.continuation.resume() }
            }
        }
        private var watchers: [(condition: @Sendable (Counts) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

        var finished: Int { counts.finished }
        var cancelled: Int { counts.cancelled }

        func start(_ call: Call) { calls.append(call); counts.calls += 1 }
        func finish() { counts.finished += 1 }
        func cancel() { counts.cancelled += 1 }

        /// Returns once `condition` holds (at once if it does now).
        func wait(until condition: @escaping @Sendable (Counts) -> Bool) async {
            if condition(counts) { return }
            await withCheckedContinuation { watchers.append((condition, $0)) }
        }
    }

    func recognitionModels() async -> [RecognitionModelDescription] { models }

    func detectLanguage(_ audio: AudioBuffer, model: String) async throws -> (language: String, probability: Double)? {
        heardLanguage.map { ($0, 0.9) }
    }

    func transcribe(_ audio: AudioBuffer, model: String, options: TranscriptionOptions)
        -> AsyncThrowingStream<TranscriptSegment, any Error> {
        let probe = probe, holdAfter = holdAfter, gate = gate
        return AsyncThrowingStream { continuation in
            let task = Task {
                await probe.start(.init(model: model, options: options, frames: audio.frameCount,
                                        sampleRate: audio.sampleRate, channels: audio.channelCount))
                do {
                    if options.initialPrompt?.contains("BROKEN") == true { throw ModelError(.failed, "the model run failed") }
                    if options.initialPrompt?.contains("NOAUDIO") == true {
                        throw ModelError(.badInput, "the audio is empty (0 samples): nothing to recognise")
                    }
                    let language = options.task == .translate ? "de" : (options.language ?? "en")
                    let prefix = options.task == .translate ? "[translated] " : ""
                    let texts = [" \(prefix)Hello from \(model).", " Second segment, language \(language)."]
                    let duration = audio.duration
                    for (index, text) in texts.enumerated() {
                        if index == holdAfter { await gate.wait() }
                        try Task.checkCancellation()
                        let (start, end) = index == 0 ? (0, duration / 2) : (duration / 2, duration)
                        continuation.yield(TranscriptSegment(
                            start: start, end: end, text: text,
                            tokens: [50363 + index, 1000 + index], language: language, averageLogProbability: -0.25,
                            compressionRatio: 1.5, noSpeechProbability: 0.01, temperature: 0,
                            words: options.wordTimestamps ? Self.words(text, from: start, to: end) : nil))
                    }
                    await probe.finish()
                    continuation.finish()
                } catch is CancellationError {
                    await probe.cancel()
                    continuation.finish(throwing: CancellationError())
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The words of `text` (each with its leading space, as Whisper writes them) spread evenly over the span.
    static func words(_ text: String, from start: Double, to end: Double) -> [TranscriptWord] {
        let words = text.split(separator: " ")
        let step = (end - start) / Double(words.count)
        return words.enumerated().map { i, word in
            TranscriptWord(word: " " + word, start: start + Double(i) * step, end: start + Double(i + 1) * step, probability: 0.9)
        }
    }
}
