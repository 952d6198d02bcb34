import Foundation

/// The normalizers byte-level BPE files use (Hugging Face's `normalizer` field).
indirect enum TextNormalizer: Sendable {
    case nfc, nfd, nfkc, nfkd, lowercase
    case strip(left: Bool, right: Bool)
    case replace(pattern: String, content: String)
    case prepend(String)
    case sequence([TextNormalizer])

    func apply(_ text: String) -> String {
        switch self {
        case .nfc: return text.precomposedStringWithCanonicalMapping
        case .nfd: return text.decomposedStringWithCanonicalMapping
        case .nfkc: return text.precomposedStringWithCompatibilityMapping
        case .nfkd: return text.decomposedStringWithCompatibilityMapping
        case .lowercase: return text.lowercased()
        case .strip(let left, let right):
            var scalars = Substring(text).unicodeScalars[...]
            if left { scalars = scalars.drop(while: \.properties.isWhitespace) }
            if right {
                while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
            }
            return String(String.UnicodeScalarView(scalars))
        case .replace(let pattern, let content):
            return text.replacingOccurrences(of: pattern, with: content)
        case .prepend(let prefix):
            return text.isEmpty ? text : prefix + text
        case .sequence(let steps):
            return steps.reduce(text) { $1.apply($0) }
        }
    }
}
