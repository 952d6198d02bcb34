import ONNXRuntime
import WarbleModels

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

    func render(_ utterance: Utterance, voice: String, rate: Double, options: RunOptions) throws -> RenderedUtterance {
        let key = ChunkCache.Key(model: base.modelID, voice: voice, text: utterance.text, phonemes: utterance.phonemes,
                                 language: utterance.language, rate: Int((rate * 1000).rounded()))
        if let cached = cache.value(for: key) { return cached }
        let rendered = try base.render(utterance, voice: voice, rate: rate, options: options)
        cache.insert(rendered, for: key)
        return rendered
    }
}
