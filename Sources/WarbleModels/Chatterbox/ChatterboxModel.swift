import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech
import WarbleText

/// The `config` of a Chatterbox Turbo manifest; every key optional.
public struct ChatterboxConfiguration: Sendable, Equatable, Codable {
    /// `fp32`, `fp16`, `q4f16`, `quantized` or `q4`; nil: the first whose files are there.
    public var variant: String?
    /// The PyTorch reference's sampling (temperature 0.8, top-k 1000, top-p 0.95) instead of the model
    /// card's greedy decoding.
    public var sampling: Bool
    /// The seed of the sampling draws.
    public var seed: UInt64

    public init(variant: String? = nil, sampling: Bool = false, seed: UInt64 = 0) {
        self.variant = variant
        self.sampling = sampling
        self.seed = seed
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        variant = try c.decodeIfPresent(String.self, forKey: .variant)
        sampling = try c.decodeIfPresent(Bool.self, forKey: .sampling) ?? false
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0
    }
}

/// Chatterbox Turbo (Resemble AI; `ResembleAI/chatterbox-turbo-ONNX`): text → the authors' clean-up →
/// GPT-2 BPE → speech tokens (language model conditioned on the voice's `audio_features`) → 24 kHz
/// audio (conditional decoder). Speaks voices cloned from a clip (`.encoderOutputs`); `begin` streams
/// in chunks of 25, 50, 100 and then 200 tokens (`ChatterboxStream`).
public final class ChatterboxModel: UtteranceRenderer {
    public let modelID: String
    public let sampleRate = ChatterboxCodec.sampleRate
    public let voices: [VoiceDescription] = []
    public let defaultVoice = ""
    public let language = "en"
    /// The authors' limit for one generation's text.
    public let chunkCharacters = 300
    public var firstChunkCharacters: Int? { nil }
    public var fastestRate: Double { 1 }

    let files: ChatterboxFiles
    let tokenizer: BPETokenizer
    let llm: ChatterboxLanguageModel
    let codec: ChatterboxCodec
    let sampler: ChatterboxSampler
    let seed: UInt64

    public init(directory: URL, modelID: String = "chatterbox-turbo", configuration: ChatterboxConfiguration = .init(),
                sessionOptions: SessionOptions = .init()) throws {
        files = try ChatterboxFiles.locate(in: directory, variant: configuration.variant)
        self.modelID = modelID
        tokenizer = try BPETokenizer(tokenizerJSON: files.tokenizer)
        llm = try ChatterboxLanguageModel(files: files, options: sessionOptions)
        codec = try ChatterboxCodec(files: files, options: sessionOptions)
        sampler = ChatterboxSampler(mode: configuration.sampling ? .reference : .greedy)
        seed = configuration.seed
    }

    /// The text ids for `text` (cleaned as the authors clean it).
    func textIDs(_ text: String) throws -> [Int] { try Self.textIDs(text, tokenizer: tokenizer) }

    /// As the model card calls the tokenizer (its defaults): the post-processor of `tokenizer.json` applies, so a
    /// template that puts BOS/EOS around the text puts them in the ids (GPT-2's ByteLevel one adds nothing).
    static func textIDs(_ text: String, tokenizer: BPETokenizer) throws -> [Int] {
        let cleaned = ChatterboxTextCleaner.clean(text)
        guard !tokenizer.encode(cleaned, addSpecialTokens: false).isEmpty else {
            throw ModelError(.badInput, "Chatterbox Turbo has no text to speak")
        }
        return tokenizer.encode(cleaned, addSpecialTokens: true)
    }

    /// Greedy (the model card's decoding) unless the configuration or the request's seed asks for the
    /// reference's sampling; a request's seed is the draws' seed.
    func generation(_ text: String, voice: ChatterboxVoice, controls: VoiceControls) throws -> ChatterboxTokenGeneration {
        let sampler = controls.seed == nil ? self.sampler : ChatterboxSampler(mode: .reference)
        return ChatterboxTokenGeneration(model: llm, features: voice.features, featureRows: voice.featureRows, text: try textIDs(text),
                                         sampler: sampler, seed: controls.seed ?? seed)
    }

    /// Takes a seed (the reference's sampling with it); refuses the rest.
    public func validate(_ controls: VoiceControls) throws {
        guard controls.hasNoPiperSettings, controls.instruction == nil, !controls.crossLingual else {
            throw ModelError(.badInput, "\(modelID) takes only a seed (which samples as the authors' PyTorch code does); "
                + "no speaker, noise or length scale, instruction or cross-lingual setting")
        }
    }

    static func voice(_ voice: RenderVoice) throws -> ChatterboxVoice {
        guard let conditioning = voice.conditioning else {
            throw ModelError(.unknownVoice, "Chatterbox Turbo has no voice '\(voice.id)'; clone one from a clip of more than 5 s "
                + "with `warble voice add NAME --model chatterbox --from CLIP`")
        }
        return try ChatterboxVoice(conditioning, voice: voice.id)
    }

    public func render(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> RenderedUtterance {
        let speaker = try Self.voice(voice)
        var generation = try generation(utterance.text, voice: speaker, controls: voice.controls)
        let speech = try generation.all(cancel: cancel)
        let audio = try cancel.withRunOptions { options in
            try codec.decode(speech + Array(repeating: ChatterboxCodec.silence, count: 3), voice: speaker, options: options)
        }
        return RenderedUtterance(samples: audio, wordWeights: WordWeights.letters(utterance.text))
    }

    public func begin(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws
        -> any UtteranceRendering {
        guard abs(rate - 1) < 1e-6 else { return WholeRendering(try render(utterance, voice: voice, rate: rate, cancel: cancel)) }
        let speaker = try Self.voice(voice)
        return ChatterboxRendering(generation: try generation(utterance.text, voice: speaker, controls: voice.controls),
                                   stream: ChatterboxStream(codec: codec, voice: speaker),
                                   wordWeights: WordWeights.letters(utterance.text))
    }
}

/// One utterance streamed: tokens are written until a chunk of audio is ready.
final class ChatterboxRendering: UtteranceRendering, @unchecked Sendable {
    // Mutated only by nextPiece, which callers never run concurrently.
    private var generation: ChatterboxTokenGeneration
    private var stream: ChatterboxStream
    let wordWeights: [Int]
    private(set) var isFinished = false

    init(generation: ChatterboxTokenGeneration, stream: ChatterboxStream, wordWeights: [Int]) {
        self.generation = generation
        self.stream = stream
        self.wordWeights = wordWeights
    }

    var lengthIsExact: Bool { generation.isFinished }
    /// Exact once the tokens are all written; before, the tokens so far and the silence.
    var totalSamples: Int { (stream.tokens.count + 3) * ChatterboxCodec.samplesPerToken }

    func nextPiece(cancel: CancellationToken) throws -> [Float] {
        guard !isFinished else { return [] }
        while let token = try generation.next(cancel: cancel) {
            let piece = try cancel.withRunOptions { try stream.append(token, options: $0) }
            if !piece.isEmpty { return piece }
        }
        isFinished = true
        return try cancel.withRunOptions { try stream.finish(options: $0) }
    }
}

/// Clones a Chatterbox Turbo voice from a clip: 24 kHz mono at −27 LUFS through the speech encoder.
/// The authors refuse clips of 5 s or less.
public struct ChatterboxVoiceEncoder: VoiceEncoder {
    public let modelID: String
    public var clipSeconds: ClosedRange<Double> { 5.01...30 }
    public var needsTranscript: Bool { false }
    let codec: ChatterboxCodec

    init(modelID: String, codec: ChatterboxCodec) {
        self.modelID = modelID
        self.codec = codec
    }

    public func encode(_ clip: AudioBuffer, transcript: String?) async throws -> VoiceConditioning {
        guard clip.duration > 5 else {
            throw ModelError(.badInput, String(format: "the clip has %.1f s of speech; Chatterbox Turbo needs more than 5 s", clip.duration))
        }
        let codec = codec
        return try await BlockingWork.run(cancel: CancellationToken()) { cancel in
            try cancel.withRunOptions { options in try codec.encode(try ChatterboxCodec.prepare(clip), options: options).conditioning }
        }
    }
}
