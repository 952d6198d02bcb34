import Foundation

/// Rewrites the character data of an SSML document, leaving its tags (and so its marks and breaks)
/// as they are. Used for spelling mode. The five XML entities are decoded before `transform` and the
/// result is escaped again.
enum SSMLTextMap {
    static func map(_ ssml: String, _ transform: (String) -> String) -> String {
        var result = ""
        var text = ""
        var inTag = false
        func flush() {
            guard !text.isEmpty else { return }
            let decoded = decode(text)
            result += decoded.allSatisfy(\.isWhitespace) ? text : escape(transform(decoded))
            text = ""
        }
        for character in ssml {
            if inTag {
                result.append(character)
                if character == ">" { inTag = false }
            } else if character == "<" {
                flush()
                result.append(character)
                inTag = true
            } else {
                text.append(character)
            }
        }
        flush()
        return result
    }

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
