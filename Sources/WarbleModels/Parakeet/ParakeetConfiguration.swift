/// The manifest's `config` for a Parakeet TDT model: which files are the encoder, decoder and joiner (f32:
/// `encoder.onnx` with its `encoder.weights`; int8: `*.int8.onnx`) and the token table (`warble models pull` records the
/// catalogue's names and the repository's paths in `files`).
public struct ParakeetConfiguration: Decodable, Sendable, Equatable {
    /// Catalogue name → path in the model directory.
    public var files: [String: String]
    /// The longest stretch decoded in one encoder pass, in seconds; longer audio is cut at its quietest moments
    /// into pieces no longer than this.
    public var maximumSeconds: Double

    public static let defaultMaximumSeconds = 120.0

    public init(files: [String: String] = [:], maximumSeconds: Double = Self.defaultMaximumSeconds) {
        self.files = files
        self.maximumSeconds = maximumSeconds
    }

    enum CodingKeys: String, CodingKey { case files, maximumSeconds }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        files = try container.decodeIfPresent([String: String].self, forKey: .files) ?? [:]
        maximumSeconds = try container.decodeIfPresent(Double.self, forKey: .maximumSeconds) ?? Self.defaultMaximumSeconds
        guard maximumSeconds >= 10 else {
            throw DecodingError.dataCorruptedError(forKey: .maximumSeconds, in: container,
                                                   debugDescription: "maximumSeconds must be at least 10, not \(maximumSeconds)")
        }
    }

    /// The graph of `part` (encoder, decoder or joiner): the manifest's `PART.onnx` or `PART.int8.onnx`, else `PART.onnx`.
    public func graph(_ part: String) -> String {
        files["\(part).onnx"] ?? files["\(part).int8.onnx"] ?? "\(part).onnx"
    }

    public var tokens: String { files["tokens.txt"] ?? "tokens.txt" }
}
