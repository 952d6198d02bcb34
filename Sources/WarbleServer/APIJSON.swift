import Foundation

/// The JSON the API answers with: snake_case keys, sorted, slashes unescaped.
enum APIJSON {
    static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }
}
