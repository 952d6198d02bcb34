import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech

/// NeuCodec's encoder as tools/neutts/export_encoder.py exports it (no ONNX of it is published): 16 kHz
/// mono audio (`audio` f32 [1, N]) → 50 Hz codes (`codes` int32 or int64 [1, 1, F], values 0…65535),
/// F = ⌈(N + 1) / 320⌉ − 1. The graph holds NeuCodec.encode_code whole (padding, w2v-bert's features,
/// the acoustic and semantic encoders, FSQ), so the codes are PyTorch's.
final class NeuCodecEncoder: Sendable {
    static let sampleRate = 16_000
    static let samplesPerCode = 320
    /// Shorter audio gives no frame of features.
    static let minimumSamples = 400

    let graph: ModelGraph
    let output: String

    init(url: URL, options: SessionOptions) throws {
        let session = try Session(contentsOf: url, options: options)
        graph = try ModelGraph(session: session, file: url.lastPathComponent, model: "NeuCodec", role: "encoder",
                               inputs: [.exact("audio", .float32)], outputs: [])
        guard let first = session.outputs.first else {
            throw ModelError(.badModel, "\(url.lastPathComponent) is not NeuCodec's encoder: it has no output")
        }
        output = first.name
    }

    /// Codes of 16 kHz mono samples.
    func encode(_ samples: [Float], options: RunOptions?) throws -> [Int] {
        guard samples.count >= Self.minimumSamples else {
            throw ModelError(.badInput, "NeuCodec encodes at least \(Self.minimumSamples) samples (25 ms at 16 kHz); \(samples.count) were given")
        }
        guard samples.allSatisfy(\.isFinite) else { throw ModelError(.badInput, "the clip holds samples that are not numbers") }
        let outputs = try graph.run(["audio": try Tensor(samples, shape: [1, samples.count])], options: options)
        let tensor = try outputs.tensor(output)
        let codes: [Int] = switch tensor.elementType {
        case .int32: try tensor.scalars(as: Int32.self).map(Int.init)
        case .int64: try tensor.scalars(as: Int64.self).map(Int.init)
        default: throw ModelError(.badModel, "NeuCodec's encoder gave \(tensor.elementType) codes; expected int32 or int64")
        }
        let expected = (samples.count + 1 + Self.samplesPerCode - 1) / Self.samplesPerCode - 1
        guard codes.count == expected, codes.allSatisfy(NeuCodecDecoder.codes.contains) else {
            throw ModelError(.badModel, "NeuCodec's encoder gave \(codes.count) codes for \(samples.count) samples; "
                + "expected \(expected) codes in 0…65535")
        }
        return codes
    }
}

/// A NeuTTS voice from a clip: the clip at 16 kHz mono through NeuCodec's encoder, with its transcript.
public struct NeuTTSVoiceEncoder: VoiceEncoder {
    public let modelID: String
    let encoder: NeuCodecEncoder

    init(modelID: String, encoder: NeuCodecEncoder) {
        self.modelID = modelID
        self.encoder = encoder
    }

    /// 0.5–30 s: what a NeuTTS voice's codes may hold (`NeuTTSVoice`).
    public var clipSeconds: ClosedRange<Double> {
        Double(NeuTTSVoice.minimumCodes + 1) / 50...Double(NeuTTSVoice.maximumCodes) / 50
    }
    public var needsTranscript: Bool { true }

    public func encode(_ clip: AudioBuffer, transcript: String?) async throws -> VoiceConditioning {
        let mono = clip.mixedToMono()
        let samples: [Float]
        if mono.sampleRate == NeuCodecEncoder.sampleRate {
            samples = mono.samples
        } else {
            do { samples = try mono.resampled(to: NeuCodecEncoder.sampleRate).samples } catch {
                throw ModelError(.badInput, "cannot resample \(mono.sampleRate) Hz audio to 16 kHz: \(error)")
            }
        }
        let encoder = encoder
        let codes = try await BlockingWork.run(cancel: CancellationToken()) { cancel in
            try cancel.withRunOptions { options in try encoder.encode(samples, options: options) }
        }
        return try NeuTTSVoice(codes: codes, transcript: transcript ?? "").conditioning
    }
}

/// NeuCodec's models in the store: the decoder NeuTTS speaks through, and the encoder export_encoder.py
/// writes (`config.role` "encoder"), which lets NeuTTS clone from a clip.
enum NeuCodecModels {
    static func isEncoder(_ model: ModelFiles) -> Bool {
        if case .object(let config)? = model.manifest.config, case .string("encoder")? = config["role"] { return true }
        return false
    }

    static func decoder(in installed: [ModelFiles]) -> ModelFiles? {
        let codecs = installed.filter { $0.manifest.family == "neucodec" && !isEncoder($0) }
        return codecs.first { $0.manifest.id == "neucodec" } ?? codecs.first
    }

    static func encoder(in installed: [ModelFiles]) -> ModelFiles? {
        let encoders = installed.filter { $0.manifest.family == "neucodec" && isEncoder($0) }
        return encoders.first { $0.manifest.id == "neucodec-encoder" } ?? encoders.first
    }
}
