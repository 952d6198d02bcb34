/// The manifest's `config` for a SenseVoice model: the shared configuration of exported recognisers (which file is
/// the graph and which the token table, the longest stretch decoded in one forward pass).
public typealias SenseVoiceConfiguration = ExportedRecognizerConfiguration

extension SenseVoiceModel {
    /// The graph: the one ONNX file the manifest names (model.onnx or model.int8.onnx), else model.onnx.
    static func graphFile(_ configuration: SenseVoiceConfiguration) -> String {
        configuration.files.filter { $0.key.hasSuffix(".onnx") }.sorted { $0.key < $1.key }.first?.value ?? "model.onnx"
    }
}
