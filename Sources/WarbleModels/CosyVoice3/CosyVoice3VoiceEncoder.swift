import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech

/// Clones a CosyVoice 3 voice from a clip and its transcript, as the authors' zero-shot front end does
/// (`cosyvoice/cli/frontend.py`): the speaker embedding from CAM++ (`campplus.onnx`, `input` f32
/// [1, T, 80] → [1, 192]) over the 16 kHz fbank; the prompt's speech tokens from
/// `speech_tokenizer_v3.onnx` (`feats` f32 [1, 128, T], `feats_length` i32 [1] → `indices`, int32 or
/// int64 as the session says) over the 16 kHz Whisper 128-mel; the 24 kHz prompt mel; then the tokens
/// and mel frames aligned two frames to a token. The sessions are shared and `Sendable`.
public struct CosyVoice3VoiceEncoder: VoiceEncoder {
    public static let embeddingSize = 192
    public static let codebookSize = 6561
    public static let campplusFile = "campplus.onnx"
    public static let speechTokenizerFile = "speech_tokenizer_v3.onnx"
    /// The authors refuse to tokenise more than 30 s; under 2 s there is too little of the voice.
    public static let clipLimits: ClosedRange<Double> = 2...30

    public let modelID: String
    public var clipSeconds: ClosedRange<Double> { Self.clipLimits }
    public var needsTranscript: Bool { true }

    let campplus: Session
    let speechTokenizer: Session
    let features = CosyVoice3VoiceFeatures()

    /// From sessions already open (the family's). Their inputs and outputs are checked here.
    public init(modelID: String, campplus: Session, speechTokenizer: Session) throws {
        self.modelID = modelID
        self.campplus = campplus
        self.speechTokenizer = speechTokenizer
        try Self.check(campplus: campplus, speechTokenizer: speechTokenizer)
    }

    /// From a model directory holding `campplus.onnx` and `speech_tokenizer_v3.onnx`.
    public init(modelID: String, directory: URL, options: SessionOptions = SessionOptions(intraOpThreads: 1, interOpThreads: 1)) throws {
        func open(_ name: String) throws -> Session {
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw ModelError(.badModel, "\(url.path) is missing: CosyVoice 3 clones voices with \(Self.campplusFile) and \(Self.speechTokenizerFile)")
            }
            do { return try Session(contentsOf: url, options: options) } catch {
                throw ModelError(.badModel, "\(url.path) does not load in ONNX Runtime: \(error)")
            }
        }
        try self.init(modelID: modelID, campplus: open(Self.campplusFile), speechTokenizer: open(Self.speechTokenizerFile))
    }

    public func encode(_ clip: AudioBuffer, transcript: String?) async throws -> VoiceConditioning {
        let text = transcript?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !text.isEmpty else {
            throw ModelError(.badInput, "CosyVoice 3 needs the transcript of the clip (what it says, word for word) to clone a voice")
        }
        guard clip.frameCount > 0 else { throw ModelError(.badInput, "the clip is empty (0 samples): there is no voice to clone") }
        let seconds = clip.duration
        guard Self.clipLimits.contains(seconds) else {
            let advice = seconds < Self.clipLimits.lowerBound ? "record a longer one" : "cut it shorter"
            throw ModelError(.badInput, String(format: "the clip is %.1f s long; CosyVoice 3 clones a voice from %.0f to %.0f s of speech",
                seconds, Self.clipLimits.lowerBound, Self.clipLimits.upperBound) + " (\(advice))")
        }
        let encoder = self
        return try await BlockingWork.run(cancel: CancellationToken()) { cancel in
            let mono = clip.mixedToMono()
            let samples16k = try Self.resample(mono, to: CosyVoice3VoiceFeatures.tokenizerRate)
            try cancel.check()
            let embedding = try encoder.embedding(fbank: encoder.features.speakerFbank(samples16k))
            try cancel.check()
            let tokens = try encoder.speechTokens(mel: encoder.features.tokenizerMel(samples16k))
            try cancel.check()
            let mel = encoder.features.promptMel(try Self.resample(mono, to: CosyVoice3VoiceFeatures.melRate))
            return try Self.conditioning(embedding: embedding, tokens: tokens, mel: mel, transcript: text)
        }
    }

    /// The aligned `.speakerPrompt`: embedding [192], tokens, mel [2 · tokens, 80].
    static func conditioning(embedding: [Float], tokens: [Int], mel: FeatureMatrix, transcript: String) throws -> VoiceConditioning {
        let count = CosyVoice3VoiceFeatures.alignedTokenCount(melFrames: mel.rows, tokens: tokens.count)
        guard count > 0 else {
            throw ModelError(.badInput, "the clip gave \(tokens.count) speech tokens and \(mel.rows) mel frames: too little to clone a voice from")
        }
        let bins = CosyVoice3VoiceFeatures.melBins
        guard let embeddingTensor = StoredTensor(shape: [embedding.count], values: embedding),
            let melTensor = StoredTensor(shape: [2 * count, bins], values: Array(mel.values.prefix(2 * count * bins)))
        else { throw ModelError(.failed, "the voice's tensors do not have whole shapes") }
        return .speakerPrompt(
            embedding: embeddingTensor, promptTokens: Array(tokens.prefix(count)), promptMel: melTensor, transcript: transcript)
    }

    /// CAM++ over a mean-subtracted fbank `[frames, 80]`: 192 floats.
    func embedding(fbank: FeatureMatrix) throws -> [Float] {
        let input = try Tensor(fbank.values, shape: [1, fbank.rows, fbank.columns])
        let name = campplus.outputs[0].name
        let output = try campplus.run([campplus.inputs[0].name: input], outputs: [name]).tensor(name)
        guard output.count == Self.embeddingSize else {
            throw ModelError(.badModel, "\(Self.campplusFile) gave \(name) of shape \(output.shape); expected [1, \(Self.embeddingSize)]")
        }
        return try output.scalars(as: Float.self)
    }

    /// The speech tokenizer over a Whisper 128-mel `[frames, 128]` (fed transposed, `[1, 128, frames]`).
    func speechTokens(mel: FeatureMatrix) throws -> [Int] {
        var transposed = [Float](repeating: 0, count: mel.values.count)
        for r in 0..<mel.rows { for c in 0..<mel.columns { transposed[c * mel.rows + r] = mel[r, c] } }
        let feats = try Tensor(transposed, shape: [1, mel.columns, mel.rows])
        let length = try Tensor([Int32(mel.rows)], shape: [1])
        let name = speechTokenizer.outputs[0].name
        let output = try speechTokenizer.run(
            [speechTokenizer.inputs[0].name: feats, speechTokenizer.inputs[1].name: length], outputs: [name]
        ).tensor(name)
        let ids: [Int]
        switch output.elementType {
        case .int64: ids = try output.scalars(as: Int64.self).map(Int.init)
        case .int32: ids = try output.scalars(as: Int32.self).map(Int.init)
        default:
            throw ModelError(.badModel, "\(Self.speechTokenizerFile) gave \(name) as \(output.elementType); expected int32 or int64 token ids")
        }
        if let bad = ids.first(where: { $0 < 0 || $0 >= Self.codebookSize }) {
            throw ModelError(.badModel, "\(Self.speechTokenizerFile) gave the token \(bad); speech tokens are 0..<\(Self.codebookSize)")
        }
        return ids
    }

    static func resample(_ mono: AudioBuffer, to rate: Int) throws -> [Float] {
        guard mono.sampleRate != rate else { return mono.samples }
        do { return try mono.resampled(to: rate).samples } catch {
            throw ModelError(.badInput, "cannot resample \(mono.sampleRate) Hz audio to \(rate) Hz: \(error)")
        }
    }

    /// The graphs must take and give what the features here are made for.
    static func check(campplus: Session, speechTokenizer: Session) throws {
        guard campplus.inputs.count == 1, campplus.inputs[0].elementType == .float32, campplus.inputs[0].shape.count == 3,
            campplus.inputs[0].shape[2].accepts(CosyVoice3VoiceFeatures.melBins), campplus.outputs.count >= 1
        else {
            throw ModelError(.badModel, "\(campplusFile) takes \(campplus.inputs.map(\.description)); expected one input float32[B, T, 80]")
        }
        let inputs = speechTokenizer.inputs
        guard inputs.count == 2, inputs[0].elementType == .float32, inputs[0].shape.count == 3,
            inputs[0].shape[1].accepts(CosyVoice3VoiceFeatures.whisperMels), inputs[1].elementType == .int32,
            let output = speechTokenizer.outputs.first, output.elementType == .int64 || output.elementType == .int32
        else {
            throw ModelError(.badModel, "\(speechTokenizerFile) takes \(inputs.map(\.description)) and gives "
                + "\(speechTokenizer.outputs.map(\.description)); expected feats float32[B, 128, T], feats_length int32[B] → indices int32 or int64")
        }
    }
}
