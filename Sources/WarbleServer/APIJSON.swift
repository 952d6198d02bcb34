import Foundation
import WarbleSpeech

/// The JSON the API answers with: Warble's one style (snake_case keys, sorted, slashes unescaped).
enum APIJSON {
    static func encode(_ value: some Encodable) -> Data {
        (try? WarbleJSON.encoder().encode(value)) ?? Data("{}".utf8)
    }
}
