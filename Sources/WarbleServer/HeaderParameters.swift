import Foundation

/// A header value with `;`-separated parameters, as in `Content-Type` and `Content-Disposition`
/// (RFC 9110 §5.6.6): `form-data; name="file"; filename="a b.wav"`. Parameter names are
/// case-insensitive (kept lowercased); values are tokens or quoted strings with `\` escapes.
struct HeaderParameters: Sendable, Equatable {
    /// The part before the first `;`, lowercased and trimmed (`multipart/form-data`, `form-data`).
    var value: String
    var parameters: [String: String]

    init(_ header: String) throws(MultipartError) {
        var scalars = Substring(header).unicodeScalars[...]
        func skipSpace() { while let c = scalars.first, c == " " || c == "\t" { scalars.removeFirst() } }
        value = String(String.UnicodeScalarView(scalars.prefix { $0 != ";" }))
            .trimmingCharacters(in: .whitespaces).lowercased()
        scalars = scalars.drop { $0 != ";" }
        parameters = [:]
        while scalars.first == ";" {
            scalars.removeFirst()
            skipSpace()
            if scalars.isEmpty { break }  // a trailing ";" is harmless
            let name = String(String.UnicodeScalarView(scalars.prefix { $0 != "=" && $0 != ";" }))
                .trimmingCharacters(in: .whitespaces).lowercased()
            scalars = scalars.dropFirst(scalars.prefix { $0 != "=" && $0 != ";" }.count)
            guard scalars.first == "=", !name.isEmpty else {
                throw MultipartError("header parameter '\(name)' has no value in '\(header)'")
            }
            scalars.removeFirst()
            skipSpace()
            var parsed = ""
            if scalars.first == "\"" {
                scalars.removeFirst()
                var closed = false
                while let c = scalars.popFirst() {
                    if c == "\\", let escaped = scalars.popFirst() {
                        parsed.unicodeScalars.append(escaped)
                    } else if c == "\"" {
                        closed = true
                        break
                    } else {
                        parsed.unicodeScalars.append(c)
                    }
                }
                guard closed else { throw MultipartError("unterminated quoted value of '\(name)' in '\(header)'") }
                skipSpace()
                guard scalars.isEmpty || scalars.first == ";" else {
                    throw MultipartError("unexpected text after the quoted value of '\(name)' in '\(header)'")
                }
            } else {
                parsed = String(String.UnicodeScalarView(scalars.prefix { $0 != ";" }))
                    .trimmingCharacters(in: .whitespaces)
                scalars = scalars.drop { $0 != ";" }
            }
            parameters[name] = parsed
        }
    }
}
