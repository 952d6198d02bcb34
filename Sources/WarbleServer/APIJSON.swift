import Foundation
import Hummingbird
import WarbleSpeech

/// The JSON the API answers with: Warble's one style (snake_case keys, sorted, slashes unescaped).
enum APIJSON {
    static func encode(_ value: some Encodable) -> Data {
        (try? WarbleJSON.encoder().encode(value)) ?? Data("{}".utf8)
    }

    /// A 200 answer whose body is `value` in the API's JSON.
    static func response(_ value: some Encodable) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: encode(value))))
    }
}
