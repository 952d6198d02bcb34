import Foundation
import ONNXRuntime
import WarbleSpeech

/// NeuCodec's decoder (`neuphonic/neucodec-onnx-decoder`, or its `-int8` twin): 50 Hz codes (int32
/// [1, 1, F], values 0…65535) → 24 kHz audio, the first output whatever it is called. Exports differ
/// in length: F·480 samples, or (F − 1)·480; both are taken, anything else is refused.
final class NeuCodecDecoder: Sendable {
    static let sampleRate = 24_000
    static let samplesPerCode = 480
    static let codes = 0...65_535
    /// The export's cap on frames.
    static let maximumFrames = 6_000

    let graph: ModelGraph
    let output: String

    init(url: URL, options: SessionOptions) throws {
        let session = try Session(contentsOf: url, options: options)
        graph = try ModelGraph(session: session, file: url.lastPathComponent, model: "NeuCodec", role: "decoder",
                               inputs: [.index("codes")], outputs: [])
        guard let first = session.outputs.first else {
            throw ModelError(.badModel, "\(url.lastPathComponent) is not NeuCodec's decoder: it has no output")
        }
        output = first.name
    }

    /// The audio for `codes` (at most 6,000 frames).
    func decode(_ codes: [Int], options: RunOptions?) throws -> [Float] {
        guard !codes.isEmpty else { return [] }
        guard codes.count <= Self.maximumFrames else {
            throw ModelError(.badInput, "NeuCodec decodes at most \(Self.maximumFrames) codes at once; \(codes.count) were given")
        }
        if let bad = codes.first(where: { !Self.codes.contains($0) }) {
            throw ModelError(.badInput, "NeuCodec's codes are 0…65535; \(bad) is not one")
        }
        let outputs = try graph.run(["codes": try graph.indices(codes, shape: [1, 1, codes.count], for: "codes")], options: options)
        let audio = try ModelTensors.read(try outputs.tensor(output))
        let full = codes.count * Self.samplesPerCode
        guard audio.count == full || audio.count == full - Self.samplesPerCode else {
            throw ModelError(.badModel, "NeuCodec's decoder gave \(audio.count) samples for \(codes.count) codes; "
                + "expected \(full) or \(full - Self.samplesPerCode) (480 a code)")
        }
        return audio
    }
}
