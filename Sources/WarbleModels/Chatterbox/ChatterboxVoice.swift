import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech

/// A Chatterbox Turbo voice: the speech encoder's four outputs for its clip, computed once and kept in
/// the voice profile (`.encoderOutputs`).
struct ChatterboxVoice: Sendable, Equatable {
    static let names = ["audio_features", "audio_tokens", "speaker_embeddings", "speaker_features"]

    /// `audio_features` [rows, width]: the language model's conditioning prefix.
    var features: [Float]
    var featureRows: Int
    /// `audio_tokens`: the decoder's prompt tokens.
    var promptTokens: [Int]
    /// `speaker_embeddings` [192].
    var embedding: [Float]
    /// `speaker_features` [frames, 80].
    var speakerFeatures: [Float]
    var featureFrames: Int

    init(features: [Float], featureRows: Int, promptTokens: [Int], embedding: [Float], speakerFeatures: [Float], featureFrames: Int) {
        self.features = features
        self.featureRows = featureRows
        self.promptTokens = promptTokens
        self.embedding = embedding
        self.speakerFeatures = speakerFeatures
        self.featureFrames = featureFrames
    }

    /// The voice a profile's conditioning holds; a clear error for another kind or a damaged one.
    init(_ conditioning: VoiceConditioning, voice: String) throws {
        guard case .encoderOutputs(let outputs) = conditioning else {
            throw ModelError(.badInput, "voice '\(voice)' holds \(conditioning.kind), not Chatterbox Turbo's encoder outputs: "
                + "clone it again with `warble voice add NAME --model chatterbox --from CLIP`")
        }
        let missing = Self.names.filter { outputs[$0] == nil }
        guard missing.isEmpty, let f = outputs["audio_features"], let t = outputs["audio_tokens"], let e = outputs["speaker_embeddings"],
              let s = outputs["speaker_features"], f.shape.count >= 2, s.shape.count >= 2, s.shape.last == 80 else {
            throw ModelError(.badInput, "voice '\(voice)' lacks Chatterbox Turbo's " + (missing.isEmpty ? "tensor shapes" : missing.joined(separator: ", ")))
        }
        self.init(features: f.values, featureRows: f.shape[f.shape.count - 2], promptTokens: t.values.map { Int($0) },
                  embedding: e.values, speakerFeatures: s.values, featureFrames: s.shape[s.shape.count - 2])
    }

    var conditioning: VoiceConditioning {
        let width = featureRows > 0 ? features.count / featureRows : 0
        var outputs: [String: StoredTensor] = [:]
        outputs["audio_features"] = StoredTensor(shape: [1, featureRows, width], values: features)
        outputs["audio_tokens"] = StoredTensor(shape: [1, promptTokens.count], values: promptTokens.map(Float.init))
        outputs["speaker_embeddings"] = StoredTensor(shape: [1, embedding.count], values: embedding)
        outputs["speaker_features"] = StoredTensor(shape: [1, featureFrames, 80], values: speakerFeatures)
        return .encoderOutputs(outputs)
    }
}

/// The speech encoder (once per voice) and the conditional decoder (speech tokens → 24 kHz audio).
final class ChatterboxCodec: Sendable {
    /// The authors' reference loudness for a clip (`tts_turbo.py`).
    static let clipLoudness = -27.0
    static let sampleRate = 24_000
    static let samplesPerToken = 960
    /// Appended to the speech before decoding (three, as the model card does).
    static let silence = 4299

    let encoder: ModelGraph
    let decoder: ModelGraph

    init(files: ChatterboxFiles, options: SessionOptions) throws {
        encoder = try ModelGraph(files.speechEncoder, model: "Chatterbox Turbo", role: "speech encoder", inputs: [.float("audio_values")],
                                 outputs: ChatterboxVoice.names, options: options)
        decoder = try ModelGraph(files.conditionalDecoder, model: "Chatterbox Turbo", role: "conditional decoder",
                                 inputs: [.exact("speech_tokens", .int64), .float("speaker_embeddings"), .float("speaker_features")],
                                 outputs: ["waveform"], options: options)
    }

    /// The clip at 24 kHz mono, brought to −27 LUFS as the authors do (gain 10^((−27 − L)/20) when
    /// finite and positive, applied in f32).
    static func prepare(_ clip: AudioBuffer) throws -> [Float] {
        var mono = clip.mixedToMono()
        if mono.sampleRate != sampleRate { mono = try mono.resampled(to: sampleRate) }
        let samples = mono.channels[0]
        guard let loudness = try? Loudness.integrated(mono), loudness.isFinite else { return samples }
        let gain = pow(10, (clipLoudness - loudness) / 20)
        guard gain.isFinite, gain > 0 else { return samples }
        let factor = Float(gain)
        return samples.map { $0 * factor }
    }

    /// The authors' cuts of a clip (`prepare_conditionals` in tts_turbo.py): the language model is conditioned
    /// on the first 15 s (`ENC_COND_LEN`: 375 prompt tokens at 25 Hz), the decoder on the first 10 s
    /// (`DEC_COND_LEN`).
    static let languageModelSeconds = 15
    static let decoderSeconds = 10

    /// The voice for 24 kHz samples already prepared (loudness-normalised whole), cut as the authors cut
    /// it: `audio_features` from the first 15 s; the prompt tokens, speaker embedding and features from the
    /// first 10 s. A clip of at most 10 s is encoded once.
    func encode(_ samples: [Float], options: RunOptions?) throws -> ChatterboxVoice {
        let decoderCount = Self.decoderSeconds * Self.sampleRate
        guard samples.count > decoderCount else { return try encodeOnce(samples, options: options) }
        let conditioning = try encodeOnce(Array(samples.prefix(Self.languageModelSeconds * Self.sampleRate)), options: options)
        var voice = try encodeOnce(Array(samples.prefix(decoderCount)), options: options)
        voice.features = conditioning.features
        voice.featureRows = conditioning.featureRows
        return voice
    }

    /// The speech encoder's outputs for these samples, whole.
    func encodeOnce(_ samples: [Float], options: RunOptions?) throws -> ChatterboxVoice {
        let outputs = try encoder.run(["audio_values": try encoder.floats(samples, shape: [1, samples.count], for: "audio_values")],
                                      options: options)
        let (features, featureShape) = try ModelTensors.read(outputs, "audio_features")
        let tokens = try outputs.tensor("audio_tokens")
        let promptTokens: [Int] = switch tokens.elementType {
        case .int32: try tokens.scalars(as: Int32.self).map(Int.init)
        default: try tokens.scalars(as: Int64.self).map(Int.init)
        }
        let (embedding, _) = try ModelTensors.read(outputs, "speaker_embeddings")
        let (speakerFeatures, speakerShape) = try ModelTensors.read(outputs, "speaker_features")
        guard featureShape.count == 3, speakerShape.count == 3, speakerShape[2] == 80, !promptTokens.isEmpty else {
            throw ModelError(.badModel, "the speech encoder gave audio_features \(featureShape) and speaker_features \(speakerShape); "
                + "expected [1, rows, width] and [1, frames, 80], and some audio tokens")
        }
        return ChatterboxVoice(features: features, featureRows: featureShape[1], promptTokens: promptTokens, embedding: embedding,
                               speakerFeatures: speakerFeatures, featureFrames: speakerShape[1])
    }

    /// The decoder's audio for `tokens` after the voice's prompt tokens (its output holds no prompt audio).
    func decode(_ tokens: [Int], voice: ChatterboxVoice, options: RunOptions?) throws -> [Float] {
        let all = voice.promptTokens + tokens
        let outputs = try decoder.run([
            "speech_tokens": try Tensor(all.map(Int64.init), shape: [1, all.count]),
            "speaker_embeddings": try decoder.floats(voice.embedding, shape: [1, voice.embedding.count], for: "speaker_embeddings"),
            "speaker_features": try decoder.floats(voice.speakerFeatures, shape: [1, voice.featureFrames, 80], for: "speaker_features"),
        ], options: options)
        return try ModelTensors.read(outputs, "waveform").values
    }
}
