import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech

/// A loaded SenseVoice model: the CTC graph, its metadata, the token table and the front end. Immutable and
/// shared; each call decodes with its own tensors.
public final class SenseVoiceModel: Sendable {
    public let session: Session
    public let metadata: SenseVoiceMetadata
    public let tokens: TokenTable
    public let frontEnd: SenseVoiceFrontEnd
    /// The file the graph was loaded from.
    public let graph: URL
    /// The longest stretch decoded in one forward pass (the configuration's).
    public let maximumSeconds: Double

    public init(directory: URL, configuration: SenseVoiceConfiguration = .init(), options: SessionOptions = .init(),
                id: String = "sensevoice") throws {
        graph = directory.appendingPathComponent(Self.graphFile(configuration))
        maximumSeconds = configuration.maximumSeconds
        guard FileManager.default.fileExists(atPath: graph.path) else {
            throw ModelError(.badModel, "\(graph.path) is missing: pull the model again with warble models pull \(id)")
        }
        do {
            session = try Session(contentsOf: graph, options: options)
        } catch {
            throw ModelError(.badModel, "\(graph.path) does not load in ONNX Runtime: \(error)")
        }
        metadata = try SenseVoiceMetadata(session.metadata.custom, source: graph.lastPathComponent)
        tokens = try TokenTable(contentsOf: directory.appendingPathComponent(configuration.tokens))
        frontEnd = SenseVoiceFrontEnd(metadata: metadata)
        for (name, type) in [("x", ElementType.float32), ("x_length", .int32), ("language", .int32), ("text_norm", .int32)] {
            guard let input = session.input(named: name), input.elementType == type else {
                throw ModelError(.badModel, "\(graph.lastPathComponent) has no \(type) input '\(name)' (inputs: "
                    + session.inputs.map(\.name).joined(separator: ", ") + "): not a sherpa-onnx SenseVoice export")
            }
        }
        guard session.output(named: "logits") != nil else {
            throw ModelError(.badModel, "\(graph.lastPathComponent) has no output 'logits': not a sherpa-onnx SenseVoice export")
        }
        guard tokens.count == metadata.vocabularySize else {
            throw ModelError(.badModel, "\(configuration.tokens) has \(tokens.count) tokens but the graph's vocab_size is "
                + "\(metadata.vocabularySize): the files are of different models")
        }
    }

    /// The `language` input for a language code (nil: auto); a clear error for codes the model has no prompt for.
    public func languagePrompt(_ code: String?) throws -> Int32 {
        let key = code.map { LanguageCode.primary($0) } ?? "auto"
        guard let id = metadata.languages[key] else {
            throw ModelError(.badInput, "SenseVoice knows the languages " + metadata.languages.keys.filter { $0 != "auto" }.sorted()
                .joined(separator: ", ") + " (or auto), not '\(code ?? "")'")
        }
        return id
    }

    /// The logits of one forward pass over `features`: a `[1, rows + 4, vocabulary]` tensor (read in place: 120 s
    /// of audio with the real vocabulary is 200 MB of logits).
    public func logits(_ features: FeatureMatrix, language: Int32, textNorm: Int32,
                       cancel: CancellationToken = .init()) throws -> Tensor {
        let x = try Tensor(features.values, shape: [1, features.rows, features.columns])
        let feeds = [
            "x": x, "x_length": try Tensor([Int32(features.rows)], shape: [1]),
            "language": try Tensor([language], shape: [1]), "text_norm": try Tensor([textNorm], shape: [1]),
        ]
        let output = try cancel.withRunOptions { options in
            try session.run(feeds, outputs: ["logits"], options: options).tensor("logits")
        }
        guard output.shape.count == 3, output.shape[0] == 1, output.shape[2] == tokens.count else {
            throw ModelError(.badModel, "\(graph.lastPathComponent) gave logits of shape \(output.shape), not [1, T+4, \(tokens.count)]")
        }
        return output
    }
}
