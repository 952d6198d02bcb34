import Foundation
import WarbleSpeech
import WarbleServer
import WarbleText

/// A synthetic backend: each sentence ("." separated) becomes `chunkSeconds` of a 220 Hz tone with a
/// sentence and a word event. With `holdAfter: n` a synthesis makes n chunks, then waits until the
/// test opens `gate` (or the synthesis is cancelled): slow work, moving on when the test says. Words in the input steer failures:
/// "nothing" → badInput at once, "BROKEN" → a model fault at once, "LATE" → a fault on the second
/// chunk, "<bad" in SSML → a TextError with line and column.
struct FakeSpeechBackend: SpeechBackend {
    static let voices = [
        VoiceDescription(id: "test-voice", displayName: "Test Voice", language: "en-US", model: "test-model", sampleRate: 22050),
        VoiceDescription(id: "other-voice", displayName: "Other", language: "ja-JP", model: "other-model", sampleRate: 24000),
    ]

    var holdAfter: Int?
    var chunkSeconds = 0.2
    let gate = Gate()
    let probe = Probe()

    /// What the backend saw: syntheses started, chunks produced, syntheses finished, and stopped by
    /// cancellation; tests wait on these events.
    actor Probe {
        struct Counts: Sendable {
            var started = 0, produced = 0, finished = 0, cancelled = 0
        }

        private var counts = Counts() {
            didSet {
                let met = watchers.filter { $0.condition(counts) }
                watchers.removeAll { $0.condition(counts) }
                for watcher in met { watcher.continuation.resume() }
            }
        }
        private var watchers: [(condition: @Sendable (Counts) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        private(set) var requests: [SynthesisRequest] = []

        var started: Int { counts.started }
        var produced: Int { counts.produced }
        var finished: Int { counts.finished }
        var cancelled: Int { counts.cancelled }

        func start(_ request: SynthesisRequest) { requests.append(request); counts.started += 1 }
        func produce() { counts.produced += 1 }
        func finish() { counts.finished += 1 }
        func cancel() { counts.cancelled += 1 }

        /// Returns once `condition` holds (at once if it does now).
        func wait(until condition: @escaping @Sendable (Counts) -> Bool) async {
            if condition(counts) { return }
            await withCheckedContinuation { watchers.append((condition, $0)) }
        }
    }

    func installedVoices() async -> [VoiceDescription] { Self.voices }
    func defaultVoiceID() async -> String? { "test-voice" }
    /// other-voice's model takes style instructions (as CosyVoice 3 does); test-voice's does not.
    func acceptsInstructions(voice id: String) async -> Bool { id == "other-voice" }

    func voice(_ id: String?) async throws -> VoiceDescription {
        guard let id else { return Self.voices[0] }
        guard let voice = Self.voices.first(where: { $0.id == id }) else {
            throw ModelError(.unknownVoice, "unknown voice '\(id)'; installed voices: test-voice, other-voice")
        }
        return voice
    }

    func synthesize(_ request: SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error> {
        let run = Run(request: request, rate: Self.voices.first { $0.id == request.voice }?.sampleRate ?? 22050,
                      holdAfter: holdAfter, gate: gate, chunkSeconds: chunkSeconds, probe: probe)
        // Made by a task of its own, like the real engine's streams: a consumer that goes away (or is
        // cancelled) ends the stream, and that cancels the work.
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    while let chunk = try await run.next() { continuation.yield(chunk) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private actor Run {
        let request: SynthesisRequest
        let rate: Int
        let holdAfter: Int?
        let gate: Gate
        let chunkSeconds: Double
        let probe: Probe
        var sentences: [(text: Substring, range: Range<Int>)] = []
        var index = 0
        var began = false

        init(request: SynthesisRequest, rate: Int, holdAfter: Int?, gate: Gate, chunkSeconds: Double, probe: Probe) {
            self.request = request
            self.rate = rate
            self.holdAfter = holdAfter
            self.gate = gate
            self.chunkSeconds = chunkSeconds
            self.probe = probe
        }

        func next() async throws -> AudioChunk? {
            let text = request.text
            if !began {
                began = true
                await probe.start(request)
                if request.isSSML, let bad = text.range(of: "<bad") {
                    let column = text.distance(from: text.startIndex, to: bad.lowerBound) + 1
                    throw TextError(.ssml, "unexpected element <bad>", line: 1, column: column)
                }
                if text.contains("nothing") { throw ModelError(.badInput, "nothing to say in the input") }
                if text.contains("BROKEN") { throw ModelError(.failed, "the model run failed") }
                var offset = 0
                for part in text.split(separator: ".", omittingEmptySubsequences: false) {
                    let length = part.utf8.count
                    if !part.allSatisfy(\.isWhitespace) { sentences.append((part, offset..<(offset + length))) }
                    offset += length + 1
                }
            }
            guard index < sentences.count else {
                await probe.finish()
                return nil
            }
            if index == holdAfter { await gate.wait() }
            if Task.isCancelled {
                await probe.cancel()
                throw CancellationError()
            }
            if index == 1, text.contains("LATE") { throw ModelError(.failed, "the model run failed late") }
            let (_, range) = sentences[index]
            index += 1
            await probe.produce()
            let count = Int(chunkSeconds * Double(rate))
            let samples = (0..<count).map { Float(0.5 * sin(2 * Double.pi * 220 * Double($0) / Double(rate))) }
            let firstWordEnd = text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: range.lowerBound)...]
                .prefix { $0 != UInt8(ascii: ".") }.count
            return AudioChunk(samples: samples, sampleRate: rate, events: [
                .sentence(sourceRange: range, sampleOffset: 0),
                .word(sourceRange: range.lowerBound..<(range.lowerBound + firstWordEnd), sampleOffset: 0, estimated: false),
            ])
        }
    }
}
