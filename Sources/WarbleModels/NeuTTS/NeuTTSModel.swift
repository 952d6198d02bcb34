import Foundation
import ONNXRuntime
import WarbleSpeech
import WarbleText

/// The `config` of a NeuTTS manifest; every key optional.
public struct NeuTTSConfiguration: Sendable, Equatable, Codable {
    /// espeak-ng's language for the phonemes (nil: from the manifest's first language: en → en-us,
    /// fr → fr-fr, de, es).
    public var phonemeLanguage: String?
    /// Greedy decoding instead of the authors' sampling (temperature 1, top-k 50; the repository's
    /// repetition penalty still applies).
    public var greedy: Bool
    /// The seed of the sampling draws (a request's seed replaces it).
    public var seed: UInt64
    /// Codes decoded per streamed chunk: 50 (the authors' default is 25). Measured with `warble bench stages neutts`
    /// (tools/neutts/README.md "Benchmark", real-size Nano, 2 cores): each chunk decodes its codes with 56
    /// more (5 ahead, 51 behind) and generation waits while it does, so the codec costs about 0.39 s per
    /// second of audio at 25 but 0.24 at 50; over 4 s of audio the simulated stream stalled 7 times
    /// (6.4 s in all) at 25 and 3 times (5.0 s) at 50 with f32, 7 (2.5 s) against 3 (1.8 s) with int8.
    /// Reports have 25 stalling on a laptop CPU where 50 ran in real time. The cost: the first audio
    /// comes about 25 tokens later.
    public var streamingChunk: Int
    /// The backbone's context, prompt and new tokens together (the authors' `max_context`).
    public var context: Int
    /// Catalogue names → repository paths (the pull writes them; `backbone` names the ONNX graph).
    public var files: [String: String]

    public init(phonemeLanguage: String? = nil, greedy: Bool = false, seed: UInt64 = 0, streamingChunk: Int = 50, context: Int = 2048) {
        self.phonemeLanguage = phonemeLanguage
        self.greedy = greedy
        self.seed = seed
        self.streamingChunk = streamingChunk
        self.context = context
        files = [:]
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        phonemeLanguage = try c.decodeIfPresent(String.self, forKey: .phonemeLanguage)
        greedy = try c.decodeIfPresent(Bool.self, forKey: .greedy) ?? false
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0
        streamingChunk = try c.decodeIfPresent(Int.self, forKey: .streamingChunk) ?? 50
        context = try c.decodeIfPresent(Int.self, forKey: .context) ?? 2048
        files = try c.decodeIfPresent([String: String].self, forKey: .files) ?? [:]
        guard (5...500).contains(streamingChunk) else {
            throw DecodingError.dataCorruptedError(forKey: .streamingChunk, in: c, debugDescription: "streamingChunk must be 5–500 codes")
        }
        guard (64...131_072).contains(context) else {
            throw DecodingError.dataCorruptedError(forKey: .context, in: c, debugDescription: "context must be 64–131072 tokens")
        }
    }

    /// espeak-ng's name for a manifest language.
    static func espeakLanguage(_ language: String?) -> String {
        switch language?.lowercased() {
        case nil, "en", "en-us": "en-us"
        case "fr": "fr-fr"
        case let other?: other
        }
    }
}

/// Where a NeuTTS model's files are: the backbone ONNX (the manifest's `config.files.backbone`, else
/// `onnx/model.onnx`, else `model.onnx`), `tokenizer.json` and the sampling settings of
/// `generation_config.json` (`NeuTTSSampling`; none when it is absent).
public struct NeuTTSFiles: Sendable, Equatable {
    public static let backboneNames = ["onnx/model.onnx", "model.onnx"]
    public var backbone: URL
    public var tokenizer: URL
    public var generation: GenerationConfigFile

    public static func locate(in directory: URL, backbone named: String? = nil) throws -> NeuTTSFiles {
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path) }
        guard let backbone = ([named].compactMap { $0 } + backboneNames).first(where: exists) else {
            let safetensors = exists("model.safetensors")
            throw ModelError(.badModel, "the NeuTTS backbone is not in ONNX in \(directory.path)"
                + (safetensors ? ": it holds model.safetensors, which tools/neutts/convert.py turns into onnx/model.onnx "
                    + "(`warble models pull` runs it when the project's tools are there)" : ": pull it with `warble models pull neutts-nano`"))
        }
        guard exists("tokenizer.json") else {
            throw ModelError(.badModel, "NeuTTS's tokenizer.json is missing from \(directory.path): pull the model again")
        }
        return NeuTTSFiles(backbone: directory.appendingPathComponent(backbone), tokenizer: directory.appendingPathComponent("tokenizer.json"),
                           generation: try NeuTTSSampling.read(in: directory))
    }
}

/// NeuTTS Nano / Air (Neuphonic): text → espeak-ng phonemes → a chat prompt holding the reference's
/// phonemes and codes → speech codes (a decoder-only backbone) → 24 kHz audio (NeuCodec). Speaks
/// voices given as reference codes with their transcript (`.referenceCodes`); `begin` streams as the
/// authors' streaming path does (`NeuTTSStream`). The output is not watermarked.
public final class NeuTTSModel: UtteranceRenderer {
    public let modelID: String
    public let sampleRate = NeuCodecDecoder.sampleRate
    public let voices: [VoiceDescription] = []
    public let defaultVoice = ""
    public let language: String
    /// Short enough that the prompt and the codes fit the 2,048-token context.
    public let chunkCharacters = 200
    public var fastestRate: Double { 1 }

    let vocabulary: NeuTTSVocabulary
    let backbone: NeuTTSBackbone
    let codec: NeuCodecDecoder
    let phonemizer: any Phonemizer
    let phonemeLanguage: String
    let configuration: NeuTTSConfiguration
    let generationConfig: GenerationConfigFile

    public init(files: NeuTTSFiles, codec codecFile: URL, phonemizer: any Phonemizer, modelID: String = "neutts-nano",
                languages: [String] = ["en"], configuration: NeuTTSConfiguration = .init(), sessionOptions: SessionOptions = .init()) throws {
        self.modelID = modelID
        language = languages.first ?? "en"
        phonemeLanguage = configuration.phonemeLanguage ?? NeuTTSConfiguration.espeakLanguage(languages.first)
        vocabulary = try NeuTTSVocabulary(tokenizer: try BPETokenizer(tokenizerJSON: files.tokenizer))
        backbone = try NeuTTSBackbone(url: files.backbone, context: configuration.context, options: sessionOptions)
        codec = try NeuCodecDecoder(url: codecFile, options: sessionOptions)
        self.phonemizer = phonemizer
        self.configuration = configuration
        generationConfig = files.generation
    }

    /// The authors' `_to_phones`.
    func phonemes(_ text: String) throws -> String {
        try NeuTTSPhonemes.of(text, language: phonemeLanguage, phonemizer: phonemizer)
    }

    /// One part's prompt and its generation.
    func generation(phonemes spoken: String, voice: NeuTTSVoice, referencePhonemes: String, controls: VoiceControls) throws
        -> NeuTTSTokenGeneration {
        let prompt = try vocabulary.prompt(referencePhonemes: referencePhonemes, phonemes: spoken, referenceCodes: voice.codes)
        let greedy = configuration.greedy && controls.seed == nil
        return try NeuTTSTokenGeneration(backbone: backbone, vocabulary: vocabulary, prompt: prompt,
                                         sampler: NeuTTSSampling.sampler(generationConfig, greedy: greedy),
                                         seed: controls.seed ?? configuration.seed)
    }

    /// The generations of `text`, one per part that fits the context (`NeuTTSPlan`).
    func generations(_ text: String, voice: NeuTTSVoice, controls: VoiceControls) throws -> [NeuTTSTokenGeneration] {
        let reference = try phonemes(voice.transcript)
        let plan = try NeuTTSPlan(vocabulary: vocabulary, referencePhonemes: reference, referenceCodes: voice.codes,
                                  context: backbone.context, phonemes: phonemes)
        let parts = try plan.parts(text)
        guard !parts.isEmpty else { throw ModelError(.badInput, "NeuTTS has no text to speak") }
        return try parts.map { try generation(phonemes: $0.phonemes, voice: voice, referencePhonemes: reference, controls: controls) }
    }

    /// Takes a seed; refuses the rest.
    public func validate(_ controls: VoiceControls) throws {
        guard controls.hasNoPiperSettings, controls.instruction == nil, !controls.crossLingual else {
            throw ModelError(.badInput, "\(modelID) takes only a seed (for its sampling); no speaker, noise or length scale, "
                + "instruction or cross-lingual setting")
        }
    }

    func voice(_ voice: RenderVoice) throws -> NeuTTSVoice {
        guard let conditioning = voice.conditioning else {
            throw ModelError(.unknownVoice, "NeuTTS has no voice '\(voice.id)'; add one from a reference's codes with "
                + "`warble voice add NAME --model \(modelID) --codes FILE.npy --transcript TEXT`")
        }
        return try NeuTTSVoice(conditioning, voice: voice.id)
    }

    public func render(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> RenderedUtterance {
        var audio: [Float] = []
        for var generation in try generations(utterance.text, voice: try self.voice(voice), controls: voice.controls) {
            let codes = try generation.codes(cancel: cancel)
            audio += try cancel.withRunOptions { try codec.decode(codes, options: $0) }
        }
        return RenderedUtterance(samples: audio, wordWeights: WordWeights.letters(utterance.text))
    }

    public func begin(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws
        -> any UtteranceRendering {
        guard abs(rate - 1) < 1e-6 else { return WholeRendering(try render(utterance, voice: voice, rate: rate, cancel: cancel)) }
        let speaker = try self.voice(voice)
        let weights = WordWeights.letters(utterance.text)
        let parts = try generations(utterance.text, voice: speaker, controls: voice.controls).map {
            NeuTTSRendering(generation: $0, stream: NeuTTSStream(codec: codec, referenceCodes: speaker.codes, chunk: configuration.streamingChunk),
                            wordWeights: weights)
        }
        return parts.count == 1 ? parts[0] : PieceSequenceRendering(parts: parts, wordWeights: weights)
    }
}

/// One utterance streamed: codes are written until a chunk of audio settles.
final class NeuTTSRendering: UtteranceRendering, @unchecked Sendable {
    // Mutated only by nextPiece, which callers never run concurrently.
    private var generation: NeuTTSTokenGeneration
    private var stream: NeuTTSStream
    let wordWeights: [Int]
    private(set) var isFinished = false

    init(generation: NeuTTSTokenGeneration, stream: NeuTTSStream, wordWeights: [Int]) {
        self.generation = generation
        self.stream = stream
        self.wordWeights = wordWeights
    }

    var lengthIsExact: Bool { isFinished }
    /// An estimate while codes are written (480 samples a code so far).
    var totalSamples: Int { stream.written * NeuCodecDecoder.samplesPerCode }

    func nextPiece(cancel: CancellationToken) throws -> [Float] {
        guard !isFinished else { return [] }
        while let token = try generation.next(cancel: cancel) {
            let code = generation.vocabulary.code(of: token)
            let piece = try cancel.withRunOptions { try stream.append(code, options: $0) }
            if !piece.isEmpty { return piece }
        }
        isFinished = true
        return try cancel.withRunOptions { try stream.finish(options: $0) }
    }
}

/// The graph (`model.onnx`) of an installed `neucodec` model, its decoder or its encoder.
enum NeuCodecFiles {
    static func graph(in model: ModelFiles) throws -> URL {
        var named: String?
        if case .object(let config)? = model.manifest.config, case .object(let files)? = config["files"],
           case .string(let path)? = files["model.onnx"] {
            named = path
        }
        for path in [named, "model.onnx", "onnx/model.onnx"].compactMap({ $0 })
        where FileManager.default.fileExists(atPath: model.directory.appendingPathComponent(path).path) {
            return model.directory.appendingPathComponent(path)
        }
        throw ModelError(.badModel, "\(model.manifest.id) has no model.onnx in \(model.directory.path): pull it again")
    }
}
