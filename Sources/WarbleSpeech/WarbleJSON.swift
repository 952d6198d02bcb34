import Foundation

/// The one JSON style Warble writes, on the command line and in the server: snake_case keys (as
/// OpenAI's API), sorted, slashes unescaped.
public enum WarbleJSON {
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                                          : [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    /// `value` as JSON text (pretty: indented, for people).
    public static func string(_ value: some Encodable, pretty: Bool = false) throws -> String {
        String(decoding: try encoder(pretty: pretty).encode(value), as: UTF8.self)
    }
}
