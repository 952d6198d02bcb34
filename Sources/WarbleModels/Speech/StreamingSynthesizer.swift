import Foundation
import ONNXRuntime
import WarbleText

/// The streaming text-to-speech pipeline shared by every model family: plan the request (SSML,
/// chunks, normalisation, pauses), render each utterance with the family's renderer, and hand out
/// audio chunk by chunk as the consumer asks for it.
///
/// Pull-based: the next utterance is rendered when the consumer asks for the next chunk, so memory
/// stays flat however long the text, and cancelling the consuming task stops the run in progress
/// (through ONNX Runtime's terminate flag) and everything after it.
///
/// Prosody: rate changes the model's speed; volume is a gain; pitch is not something Piper or Kokoro
/// can change, so it is ignored.
public struct StreamingSynthesizer<Renderer: UtteranceRenderer>: SpeechSynthesizer {
    public let renderer: Renderer
    /// Length of the fade applied at both edges of every utterance, in seconds (no clicks at joins).
    public var edgeFade: Double

    public init(renderer: Renderer, edgeFade: Double = 0.005) {
        self.renderer = renderer
        self.edgeFade = edgeFade
    }

    public var voices: [VoiceDescription] { renderer.voices }
    public var sampleRate: Int { renderer.sampleRate }

    public func synthesize(_ request: SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error> {
        let run = SynthesisRun(renderer: renderer, request: request, edgeFade: edgeFade)
        return AsyncThrowingStream(unfolding: { try await run.next() })
    }

    /// The plan a request would follow (for tests and tools).
    public func plan(_ request: SynthesisRequest) throws -> [PlannedItem] {
        try SynthesisRun.planner(for: renderer, request: request).plan(request.text, isSSML: request.isSSML)
    }
}

/// The state of one request: its plan and how far it has got. Dies with the request.
actor SynthesisRun<Renderer: UtteranceRenderer> {
    private let renderer: Renderer
    private let request: SynthesisRequest
    private let fadeFrames: Int
    private var plan: SpeechPlan?
    private var planner: SpeechPlanner
    private var pendingEvents: [SpeechEvent] = []
    private var finished = false

    init(renderer: Renderer, request: SynthesisRequest, edgeFade: Double) {
        self.renderer = renderer
        self.request = request
        self.fadeFrames = Int(edgeFade * Double(renderer.sampleRate))
        self.planner = Self.planner(for: renderer, request: request)
    }

    static func planner(for renderer: Renderer, request: SynthesisRequest) -> SpeechPlanner {
        SpeechPlanner(language: renderer.language, chunkLimit: .characters(renderer.chunkCharacters),
                      sentencePause: max(0, request.sentencePause), clausePause: max(0, request.sentencePause * 0.4))
    }

    func next() async throws -> AudioChunk? {
        if finished { return nil }
        do {
            return try await produce()
        } catch {
            finished = true
            throw error
        }
    }

    private func produce() async throws -> AudioChunk? {
        if plan == nil { plan = try start() }
        while let item = try plan?.next() {
            try Task.checkCancellation()
            switch item {
            case .mark(let name):
                pendingEvents.append(.mark(name: name, sampleOffset: 0))
            case .pause(let seconds):
                let frames = Int((seconds * Double(renderer.sampleRate)).rounded())
                return emit(samples: [Float](repeating: 0, count: frames))
            case .utterance(let utterance):
                let spoken = planner.normalized(utterance)
                guard spoken.phonemes != nil || spoken.text.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
                return try await render(spoken)
            }
        }
        finished = true
        // Marks after the last sound still reach the listener, in an empty chunk.
        return pendingEvents.isEmpty ? nil : emit(samples: [])
    }

    private func start() throws -> SpeechPlan {
        if let voice = request.voice, !renderer.voices.contains(where: { $0.id == voice }) {
            throw ModelError(.unknownVoice, "unknown voice '\(voice)' for \(renderer.modelID); its voices are: "
                + renderer.voices.map(\.id).joined(separator: ", "))
        }
        guard request.rate > 0, request.rate.isFinite else {
            throw ModelError(.badInput, "rate must be a positive number, got \(request.rate)")
        }
        guard request.volume >= 0, request.volume.isFinite else {
            throw ModelError(.badInput, "volume must be 0 or more, got \(request.volume)")
        }
        return try planner.start(request.text, isSSML: request.isSSML)
    }

    private func render(_ utterance: Utterance) async throws -> AudioChunk {
        let voices = renderer.voices
        let voice = utterance.voice.flatMap { name in voices.first { $0.id == name || $0.displayName == name }?.id }
            ?? request.voice ?? renderer.defaultVoice
        let rate = request.rate * utterance.prosody.rate
        let options = try RunOptions()
        let renderer = self.renderer
        let rendered = try await withTaskCancellationHandler {
            try await BlockingWork.run { try renderer.render(utterance, voice: voice, rate: rate, options: options) }
        } onCancel: {
            try? options.terminate()
        }
        try Task.checkCancellation()
        var samples = rendered.samples
        let gain = Float(request.volume * utterance.prosody.volume)
        if gain != 1 {
            for i in samples.indices { samples[i] *= gain }
        }
        Self.fadeEdges(&samples, frames: fadeFrames)
        pendingEvents.append(.sentence(sourceRange: utterance.sourceRange, sampleOffset: 0))
        pendingEvents += WordTiming.events(words: utterance.words, weights: rendered.wordWeights, sampleCount: samples.count)
        return emit(samples: samples)
    }

    private func emit(samples: [Float]) -> AudioChunk {
        defer { pendingEvents.removeAll() }
        return AudioChunk(samples: samples, sampleRate: renderer.sampleRate, events: pendingEvents)
    }

    /// Raised-cosine fade-in and fade-out over `frames` samples at each edge.
    static func fadeEdges(_ samples: inout [Float], frames: Int) {
        let n = min(frames, samples.count / 2)
        guard n > 0 else { return }
        for i in 0..<n {
            let gain = Float(0.5 - 0.5 * cos(Double.pi * Double(i) / Double(n)))
            samples[i] *= gain
            samples[samples.count - 1 - i] *= gain
        }
    }
}
