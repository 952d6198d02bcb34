import WarbleSpeech

/// A renderer that looks utterances up in a `ChunkCache` before rendering them.
struct CachingRenderer: UtteranceRenderer {
    let base: any UtteranceRenderer
    let cache: ChunkCache

    var modelID: String { base.modelID }
    var sampleRate: Int { base.sampleRate }
    var voices: [VoiceDescription] { base.voices }
    var defaultVoice: String { base.defaultVoice }
    var language: String { base.language }
    var chunkCharacters: Int { base.chunkCharacters }
    var firstChunkCharacters: Int? { base.firstChunkCharacters }
    func validate(_ controls: VoiceControls) throws { try base.validate(controls) }
    var fastestRate: Double { base.fastestRate }
    func speaks(_ language: String) -> Bool { base.speaks(language) }

    func render(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> RenderedUtterance {
        let key = key(utterance, voice: voice, rate: rate)
        if let cached = cache.value(for: key) { return cached }
        let rendered = try base.render(utterance, voice: voice, rate: rate, cancel: cancel)
        cache.insert(rendered, for: key)
        return rendered
    }

    func begin(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> any UtteranceRendering {
        let key = key(utterance, voice: voice, rate: rate)
        if let cached = cache.value(for: key) { return WholeRendering(cached) }
        return RecordingRendering(try base.begin(utterance, voice: voice, rate: rate, cancel: cancel)) { rendered in
            cache.insert(rendered, for: key)
        }
    }

    private func key(_ utterance: Utterance, voice: RenderVoice, rate: Double) -> ChunkCache.Key {
        ChunkCache.Key(model: base.modelID, voice: voice.cacheKey, text: utterance.text, phonemes: utterance.phonemes,
                       language: utterance.language, rate: Int((rate * 1000).rounded()))
    }
}

/// Passes pieces through and hands the whole utterance to `done` once the last piece is out.
final class RecordingRendering: UtteranceRendering, @unchecked Sendable {
    // Mutated only by nextPiece; callers never run it concurrently.
    private let base: any UtteranceRendering
    private let done: @Sendable (RenderedUtterance) -> Void
    private var samples: [Float] = []

    init(_ base: any UtteranceRendering, done: @escaping @Sendable (RenderedUtterance) -> Void) {
        self.base = base
        self.done = done
        // Exactly the utterance's size, so the cache holds no spare capacity it does not count.
        samples.reserveCapacity(base.totalSamples)
    }

    var totalSamples: Int { base.totalSamples }
    var lengthIsExact: Bool { base.lengthIsExact }
    var wordWeights: [Int] { base.wordWeights }
    var isFinished: Bool { base.isFinished }

    func nextPiece(cancel: CancellationToken) throws -> [Float] {
        let piece = try base.nextPiece(cancel: cancel)
        samples += piece
        if base.isFinished { done(RenderedUtterance(samples: samples, wordWeights: base.wordWeights)) }
        return piece
    }
}
