/// The manifest's `config` of a recogniser exported as ONNX graphs beside a token table (sherpa-onnx's exports):
/// which file is which (`warble models pull` records the catalogue's names and the repository's paths in `files`) and
/// the longest stretch decoded in one pass. A family names its graphs from `files` in its own folder.
public struct ExportedRecognizerConfiguration: Decodable, Sendable, Equatable {
    /// Catalogue name → path in the model directory.
    public var files: [String: String]
    /// The longest stretch decoded in one pass, in seconds; longer audio is cut at its quietest moments into pieces
    /// no longer than this (`PieceDecoding`).
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

    /// The token table: the manifest's `tokens.txt`, else tokens.txt.
    public var tokens: String { files["tokens.txt"] ?? "tokens.txt" }
}
