/// The manifest's `config` for a SenseVoice model: which file is the graph and which the token table
/// (`warble models pull` records the catalogue's names and the repository's paths in `files`).
public struct SenseVoiceConfiguration: Decodable, Sendable, Equatable {
    /// Catalogue name → path in the model directory.
    public var files: [String: String]
    /// The longest stretch decoded in one forward pass, in seconds; longer audio is cut at its quietest
    /// moments into pieces no longer than this.
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

    /// The graph: the one ONNX file the manifest names (model.onnx or model.int8.onnx), else model.onnx.
    public var graph: String {
        files.filter { $0.key.hasSuffix(".onnx") }.sorted { $0.key < $1.key }.first?.value ?? "model.onnx"
    }

    public var tokens: String { files["tokens.txt"] ?? "tokens.txt" }
}
