import Foundation
import ONNXRuntime
import WarbleSpeech
import WarbleText

/// CosyVoice 3 (Fun-CosyVoice3-0.5B, the community ONNX split): text and a speaker prompt → speech
/// tokens (LLM) → mel (flow) → 24 kHz audio (HiFT). Speaks voices whose conditioning is
/// `.speakerPrompt` (cloned from a clip by the family's voice encoder), and the voices the manifest's
/// config lists. `begin` streams inside an utterance as the reference does (`CosyVoice3Rendering`).
///
/// Immutable and shared; the per-request state (KV cache, sampler, noise, accumulated mel) lives in
/// the request's `CosyVoice3TokenGeneration` and `CosyVoice3Rendering`.
public final class CosyVoice3Model: UtteranceRenderer {
    public let modelID: String
    public let sampleRate = 24_000
    public let voices: [VoiceDescription]
    public let defaultVoice: String
    public let language: String
    /// The engine's utterances (about 60–80 English tokens); each is then split into the authors'
    /// pieces of 60–80 tokens (Chinese: characters), spoken one after the other.
    public let chunkCharacters = 240
    /// Streams inside an utterance: no shorter first piece is needed.
    public var firstChunkCharacters: Int? { nil }
    /// Faster rates are time-stretched by the engine; slower ones stretch the mel as the reference does.
    public var fastestRate: Double { 1 }

    public let files: CosyVoice3Files
    public let seed: UInt64
    let tokenizer: BPETokenizer
    /// The authors' text normalisation (the planner has already cut the text into utterances).
    let textFrontEnd: CosyVoiceTextFrontEnd
    let llm: CosyVoice3LanguageModel
    let flow: CosyVoice3Flow
    let hift: CosyVoice3HiFT
    let stockVoices: [String: VoiceConditioning]

    /// The zero-shot prompt text before a voice's transcript (and the cross-lingual one before the text).
    static let promptPrefix = "You are a helpful assistant.<|endofprompt|>"
    /// The authors' separator between the system prompt and the text it governs.
    static let endOfPrompt = "<|endofprompt|>"

    public convenience init(directory: URL, manifest: ModelManifest, sessionOptions: SessionOptions = .init()) throws {
        let configuration = try ModelConfigurationReader.decode(CosyVoice3Configuration.self, from: manifest)
        try self.init(directory: directory, modelID: manifest.id, configuration: configuration, languages: manifest.languages,
                      sessionOptions: sessionOptions)
    }

    public init(directory: URL, modelID: String = "cosyvoice3", configuration: CosyVoice3Configuration = .init(),
                languages: [String] = ["en"], sessionOptions: SessionOptions = .init()) throws {
        let files = try CosyVoice3Files.locate(in: directory, variant: configuration.variant)
        self.files = files
        self.modelID = modelID
        seed = configuration.seed
        // The planner's normaliser runs in this language; the model speaks many (the catalogue lists zh first).
        let language = languages.contains("en") ? "en" : (languages.first ?? "en")
        self.language = language
        tokenizer = try CosyVoice3Tokenizer.load(files)
        textFrontEnd = CosyVoiceTextFrontEnd(tokenizer: tokenizer)
        llm = try CosyVoice3LanguageModel(files: files, options: sessionOptions)
        flow = try CosyVoice3Flow(files: files, options: sessionOptions)
        hift = try CosyVoice3HiFT(files: files, options: sessionOptions)
        var stock: [String: VoiceConditioning] = [:]
        for (id, path) in configuration.voices {
            let url = directory.appendingPathComponent(path)
            do {
                stock[id] = try JSONDecoder().decode(VoiceConditioning.self, from: Data(contentsOf: url))
            } catch {
                throw ModelError(.badModel, "CosyVoice 3 voice '\(id)': \(url.path) does not read as a speaker prompt: \(error)")
            }
        }
        stockVoices = stock
        voices = stock.keys.sorted().map {
            VoiceDescription(id: $0, displayName: $0, language: language, model: modelID, sampleRate: 24_000, gender: nil)
        }
        defaultVoice = configuration.defaultVoice.flatMap { stock[$0] == nil ? nil : $0 } ?? voices.first?.id ?? ""
    }

    // MARK: Rendering

    public func render(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> RenderedUtterance {
        var samples: [Float] = []
        for request in try requests(text: utterance.text, voice: voice) {
            var generation = request.generation(llm)
            let tokens = try generation.all(cancel: cancel)
            samples += try audio(tokens: tokens, request: request, rate: rate, cancel: cancel)
        }
        return RenderedUtterance(samples: samples, wordWeights: WordWeights.letters(utterance.text))
    }

    public func begin(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws
        -> any UtteranceRendering {
        // The reference changes speed on the whole mel only.
        guard abs(rate - 1) < 1e-6 else { return WholeRendering(try render(utterance, voice: voice, rate: rate, cancel: cancel)) }
        let weights = WordWeights.letters(utterance.text)
        let parts = try requests(text: utterance.text, voice: voice).map { CosyVoice3Rendering(model: self, request: $0, wordWeights: weights) }
        return parts.count == 1 ? parts[0] : PieceSequenceRendering(parts: parts, wordWeights: weights)
    }

    /// One-shot: mel of every token (finalize), then HiFT over all of it.
    func audio(tokens: [Int], request: CosyVoice3Request, rate: Double = 1, cancel: CancellationToken) throws -> [Float] {
        guard !tokens.isEmpty else { return [] }
        return try cancel.withRunOptions { options in
            let speaker = try flow.speaker(request.prompt.embedding, options: options)
            var mel = try flow.mel(tokens: tokens, prompt: request.prompt, speaker: speaker, noise: request.noise, finalize: true,
                                   options: options)
            if abs(rate - 1) > 1e-6 { mel = Self.stretch(mel, rate: rate) }
            return try hift.audio(mel: mel.values, frames: mel.frames, finalize: true, options: options)
        }
    }

    // MARK: Requests

    /// Takes a seed, an instruction or cross-lingual mode; refuses Piper's settings.
    public func validate(_ controls: VoiceControls) throws {
        guard controls.hasNoPiperSettings else {
            throw ModelError(.badInput, "\(modelID) takes no speaker, noise or length scale settings (Piper voices do); "
                + "it takes a seed, an instruction or cross-lingual mode")
        }
        try controls.validate()
    }

    /// How the language model is prompted (the authors' `frontend_zero_shot`, `frontend_cross_lingual`
    /// and `frontend_instruct2`). The flow always gets the voice's prompt tokens and mel.
    enum Mode: Equatable {
        /// The clip's transcript and speech tokens prompt the LLM: the text continues the clip.
        case zeroShot
        /// Neither enters the LLM; the text itself holds `<|endofprompt|>` (added when it has none).
        case crossLingual
        /// The instruction is the prompt text; the clip's speech tokens stay out of the LLM.
        case instruct(String)
    }

    /// The mode `controls` and `text` ask for: text that holds `<|endofprompt|>` is cross-lingual, as
    /// the authors write it.
    static func mode(_ controls: VoiceControls, text: String) -> Mode {
        if let instruction = controls.instruction { return .instruct(instruction) }
        return controls.crossLingual || text.contains(endOfPrompt) ? .crossLingual : .zeroShot
    }

    /// The requests an utterance makes, one for each of the authors' pieces of 60–80 tokens (Chinese:
    /// characters), spoken one after the other. Throws `TextError` when nothing is left to say.
    func requests(text: String, voice: RenderVoice) throws -> [CosyVoice3Request] {
        try textFrontEnd.pieces(text).map { try request(text: $0, voice: voice, isNormalized: true) }
    }

    /// What a request speaks: the text ids (the prompt's, then the text's), the voice's prompt, its seed
    /// and noise. `isNormalized`: the text is a piece the front end made (not normalised again).
    func request(text: String, voice: RenderVoice, seed: UInt64? = nil, noise: CosyVoice3Noise? = nil,
                 isNormalized: Bool = false) throws -> CosyVoice3Request {
        let conditioning = voice.conditioning ?? stockVoices[voice.id]
        guard conditioning != nil else {
            throw ModelError(.unknownVoice, "CosyVoice 3 has no voice '\(voice.id)'; clone one from a clip"
                + (voices.isEmpty ? "" : " or use one of: " + voices.map(\.id).joined(separator: ", ")))
        }
        let prompt = try CosyVoice3Prompt(conditioning, voice: voice.id)
        let spoken = isNormalized ? text : textFrontEnd.normalize(text)
        let promptText: String, ttsText: String, llmPromptTokens: [Int]
        switch Self.mode(voice.controls, text: text) {
        case .zeroShot:
            (promptText, ttsText, llmPromptTokens) = (Self.promptPrefix + prompt.transcript, spoken, prompt.tokens)
        case .crossLingual:
            (promptText, ttsText, llmPromptTokens) = ("", spoken.contains(Self.endOfPrompt) ? spoken : Self.promptPrefix + spoken, [])
        case .instruct(let instruction):
            (promptText, ttsText, llmPromptTokens) = ("You are a helpful assistant. " + instruction + Self.endOfPrompt, spoken, [])
        }
        let promptIDs = tokenizer.encode(promptText, addSpecialTokens: false)
        let ttsIDs = tokenizer.encode(ttsText, addSpecialTokens: false)
        guard !tokenizer.encode(spoken.replacingOccurrences(of: Self.endOfPrompt, with: ""), addSpecialTokens: false).isEmpty else {
            throw ModelError(.badInput, "CosyVoice 3 has no text to speak")
        }
        let seed = seed ?? voice.controls.seed ?? self.seed
        return CosyVoice3Request(prompt: prompt, promptTextIDs: promptIDs, ttsTextIDs: ttsIDs, llmPromptTokens: llmPromptTokens,
                                 transcriptTokenCount: tokenizer.encode(prompt.transcript, addSpecialTokens: false).count, seed: seed,
                                 noise: noise ?? CosyVoice3Noise(seed: seed))
    }

    /// The mel stretched in time to 1 / rate of its length (linear, as `F.interpolate(mode='linear')`).
    static func stretch(_ mel: (values: [Float], frames: Int), rate: Double) -> (values: [Float], frames: Int) {
        let frames = max(1, Int(Double(mel.frames) / rate))
        let scale = Double(mel.frames) / Double(frames)
        var out = [Float](repeating: 0, count: CosyVoice3Flow.channels * frames)
        for t in 0..<frames {
            let position = max(0, (Double(t) + 0.5) * scale - 0.5)
            let low = min(Int(position), mel.frames - 1), high = min(low + 1, mel.frames - 1)
            let w = Float(position - Double(low))
            for k in 0..<CosyVoice3Flow.channels {
                out[k * frames + t] = mel.values[k * mel.frames + low] * (1 - w) + mel.values[k * mel.frames + high] * w
            }
        }
        return (out, frames)
    }
}

/// One request's fixed inputs.
struct CosyVoice3Request: Sendable {
    var prompt: CosyVoice3Prompt
    var promptTextIDs: [Int]
    var ttsTextIDs: [Int]
    /// The speech tokens that prompt the LLM: the voice's in zero-shot mode, none otherwise.
    var llmPromptTokens: [Int]
    /// Tokens of the voice's transcript alone (for estimating the utterance's length).
    var transcriptTokenCount: Int
    var seed: UInt64
    var noise: CosyVoice3Noise

    /// `llmPromptTokens` nil: the voice's prompt tokens (zero-shot mode).
    init(prompt: CosyVoice3Prompt, promptTextIDs: [Int], ttsTextIDs: [Int], llmPromptTokens: [Int]? = nil, transcriptTokenCount: Int,
         seed: UInt64, noise: CosyVoice3Noise) {
        self.prompt = prompt
        self.promptTextIDs = promptTextIDs
        self.ttsTextIDs = ttsTextIDs
        self.llmPromptTokens = llmPromptTokens ?? prompt.tokens
        self.transcriptTokenCount = transcriptTokenCount
        self.seed = seed
        self.noise = noise
    }

    func generation(_ llm: CosyVoice3LanguageModel) -> CosyVoice3TokenGeneration {
        llm.generation(text: promptTextIDs + ttsTextIDs, ttsTextCount: ttsTextIDs.count, promptTokens: llmPromptTokens, seed: seed)
    }
}
