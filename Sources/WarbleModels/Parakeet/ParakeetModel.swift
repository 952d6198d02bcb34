import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech

/// A loaded Parakeet TDT model: sherpa-onnx's three NeMo graphs (encoder, prediction network, joiner), the encoder's
/// metadata, the token table and the front end. Immutable and shared; each call decodes with its own tensors.
public final class ParakeetModel: Sendable {
    let encoder: ModelGraph
    let decoder: ModelGraph
    let joiner: ModelGraph
    /// The decoder's state inputs and the outputs fed back to them, in the graph's order (NeMo's traced names:
    /// `states.1`, `onnx::Slice_3` ← `states`, `162`).
    let stateInputs: [String]
    let stateOutputs: [String]
    public let metadata: ParakeetMetadata
    public let tokens: TokenTable
    public let frontEnd: ParakeetFrontEnd
    /// Duration logits after the token logits (5 for Parakeet TDT: 0–4 frames).
    public let durationCount: Int
    /// The longest stretch decoded in one encoder pass (the configuration's).
    public let maximumSeconds: Double

    public init(directory: URL, configuration: ParakeetConfiguration = .init(), options: SessionOptions = .init(),
                id: String = "Parakeet") throws {
        maximumSeconds = configuration.maximumSeconds
        func url(_ part: String) throws -> URL {
            let file = directory.appendingPathComponent(Self.graphFile(part, configuration))
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw ModelError(.badModel, "\(file.path) is missing: pull the model again with warble models pull \(id)")
            }
            return file
        }
        let name = "Parakeet TDT"
        encoder = try ModelGraph(try url("encoder"), model: name, role: "encoder",
                                 inputs: [.exact("audio_signal", .float32), .exact("length", .int64)],
                                 outputs: ["outputs", "encoded_lengths"], options: options)
        let decoderSession = try Session(contentsOf: try url("decoder"), options: options)
        stateInputs = decoderSession.inputs.dropFirst(2).map(\.name)
        stateOutputs = decoderSession.outputs.dropFirst(2).map(\.name)
        decoder = try ModelGraph(session: decoderSession, file: Self.graphFile("decoder", configuration), model: name, role: "decoder",
                                 inputs: [.exact("targets", .int32), .exact("target_length", .int32)]
                                     + stateInputs.map { .exact($0, .float32) },
                                 outputs: [decoderSession.outputs.first?.name ?? "outputs"] + stateOutputs)
        joiner = try ModelGraph(try url("joiner"), model: name, role: "joiner",
                                inputs: [.exact("encoder_outputs", .float32), .exact("decoder_outputs", .float32)],
                                outputs: ["outputs"], options: options)
        let source = Self.graphFile("encoder", configuration)
        metadata = try ParakeetMetadata(encoder.session.metadata.custom, source: source)
        tokens = try TokenTable(contentsOf: directory.appendingPathComponent(configuration.tokens))
        frontEnd = ParakeetFrontEnd(metadata: metadata)
        if GraphAudit.current != nil { durationCount = 0; return }
        guard stateInputs.count == 2, stateOutputs.count == 2 else {
            throw ModelError(.badModel, "\(Self.graphFile("decoder", configuration)) is not Parakeet TDT's decoder: it has "
                + "\(decoderSession.inputs.count) inputs and \(decoderSession.outputs.count) outputs (4 and 4: targets, "
                + "target_length and the LSTM's two states in; its output, lengths and the two states out)")
        }
        guard metadata.isTDT else {
            throw ModelError(.badModel, "\(source) is a NeMo transducer without durations (its metadata's url has no \"tdt\"): "
                + "only Parakeet TDT models are supported")
        }
        guard tokens.count == metadata.vocabularySize, tokens[metadata.blank] == "<blk>" else {
            throw ModelError(.badModel, "\(configuration.tokens) has \(tokens.count) tokens (the last '\(tokens[tokens.count - 1])') "
                + "but the encoder's vocab_size + 1 is \(metadata.vocabularySize) with <blk> last: the files are of different models")
        }
        let width = joiner.session.output(named: "outputs")?.shape.last?.value
        guard let width, width > metadata.vocabularySize else {
            throw ModelError(.badModel, "\(Self.graphFile("joiner", configuration)) gives \(width.map(String.init) ?? "an unknown number of") logits "
                + "a step, not the \(metadata.vocabularySize) tokens and the durations of a TDT joiner")
        }
        durationCount = width - metadata.vocabularySize
    }

    /// The encoder's output of `features` ([frames, mels]) as `[encoder frames, width]` rows.
    func encode(_ features: FeatureMatrix, cancel: CancellationToken) throws -> FeatureMatrix {
        let input = features.transposed()  // [mels, frames]
        let feeds = [
            "audio_signal": try Tensor(input.values, shape: [1, features.columns, features.rows]),
            "length": try Tensor([Int64(features.rows)], shape: [1]),
        ]
        let outputs = try cancel.withRunOptions { options in try encoder.run(feeds, options: options) }
        let encoded = try outputs.tensor("outputs")
        let lengths = try outputs.tensor("encoded_lengths").scalars(as: Int64.self)
        guard encoded.shape.count == 3, encoded.shape[0] == 1, let length = lengths.first else {
            throw ModelError(.badModel, "the encoder gave outputs of shape \(encoded.shape), not [1, width, frames]")
        }
        let width = encoded.shape[1], frames = min(encoded.shape[2], max(0, Int(length)))
        let channels = FeatureMatrix(rows: width, columns: encoded.shape[2], values: try encoded.scalars(as: Float.self))
        let rows = channels.transposed()
        return FeatureMatrix(rows: frames, columns: width, values: Array(rows.values.prefix(frames * width)))
    }

    /// The prediction network after `token`, from `states` (nil: zeros): its output `[1, hidden, 1]` and the states after.
    func predict(_ token: Int, states: [Tensor]?, cancel: CancellationToken) throws -> (output: Tensor, states: [Tensor]) {
        var feeds = [
            "targets": try Tensor([Int32(token)], shape: [1, 1]),
            "target_length": try Tensor([Int32(1)], shape: [1]),
        ]
        let zero = [metadata.predictionLayers, 1, metadata.predictionHidden]
        for (i, name) in stateInputs.enumerated() {
            feeds[name] = try states?[i] ?? Tensor(repeating: Float(0), shape: zero)
        }
        let outputs = try cancel.withRunOptions { options in try decoder.run(feeds, options: options) }
        return (try outputs.tensor(outputs.names[0]), try stateOutputs.map { try outputs.tensor($0) })
    }

    /// The joiner's logits for one encoder frame and one prediction: token logits then duration logits.
    func join(_ frame: ArraySlice<Float>, _ prediction: Tensor, cancel: CancellationToken) throws -> [Float] {
        let feeds = ["encoder_outputs": try Tensor(Array(frame), shape: [1, frame.count, 1]), "decoder_outputs": prediction]
        let outputs = try cancel.withRunOptions { options in try joiner.run(feeds, options: options) }
        return try outputs.tensor("outputs").scalars(as: Float.self)
    }
}
