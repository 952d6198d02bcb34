import Foundation
import WarbleAudio
import WarbleModels
import WarbleServer

/// A synthetic recognition backend: two models (English-only `whisper-tiny.en`, multilingual
/// `whisper-base`), and for any audio two segments that say what was asked, each after `delay`.
/// A prompt containing "BROKEN" fails with a model fault; "NOAUDIO" with the recogniser's bad-input error.
struct TranscriptionFakeBackend: TranscriptionBackend {
    static let models = [
        RecognitionModelDescription(id: "whisper-base", languages: ["en", "de", "fr"], canTranslate: true),
        RecognitionModelDescription(id: "whisper-tiny.en", languages: ["en"], canTranslate: false),
    ]

    var models = Self.models
    var delay: Duration = .zero
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
        private(set) var calls: [Call] = []
        private(set) var finished = 0
        private(set) var cancelled = 0

        func start(_ call: Call) { calls.append(call) }
        func finish() { finished += 1 }
        func cancel() { cancelled += 1 }
    }

    func recognitionModels() async -> [RecognitionModelDescription] { models }

    func transcribe(_ audio: AudioBuffer, model: String, options: TranscriptionOptions)
        -> AsyncThrowingStream<TranscriptSegment, any Error> {
        let probe = probe, delay = delay
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
                        try await Task.sleep(for: delay)
                        continuation.yield(TranscriptSegment(
                            start: index == 0 ? 0 : duration / 2, end: index == 0 ? duration / 2 : duration, text: text,
                            tokens: [50363 + index, 1000 + index], language: language, averageLogProbability: -0.25,
                            compressionRatio: 1.5, noSpeechProbability: 0.01, temperature: 0))
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
}
