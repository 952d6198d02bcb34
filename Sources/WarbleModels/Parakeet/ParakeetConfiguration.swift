/// The manifest's `config` for a Parakeet TDT model: the shared configuration of exported recognisers (which files are
/// the encoder, decoder and joiner — f32: `encoder.onnx` with its `encoder.weights`; int8: `*.int8.onnx` — and the
/// token table, the longest stretch decoded in one encoder pass).
public typealias ParakeetConfiguration = ExportedRecognizerConfiguration

extension ParakeetModel {
    /// The graph of `part` (encoder, decoder or joiner): the manifest's `PART.onnx` or `PART.int8.onnx`, else `PART.onnx`.
    static func graphFile(_ part: String, _ configuration: ParakeetConfiguration) -> String {
        configuration.files["\(part).onnx"] ?? configuration.files["\(part).int8.onnx"] ?? "\(part).onnx"
    }
}
