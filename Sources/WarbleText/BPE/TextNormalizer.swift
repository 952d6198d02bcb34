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
        // Foundation's decompositions are put in canonical order again before composing: on Linux it can leave
        // combining marks that come from a compatibility mapping (U+FF9E → U+3099) out of order.
        case .nfc:
            if text.unicodeScalars.allSatisfy(Self.isNFCStable) { return text }
            return Self.canonicalOrder(text.decomposedStringWithCanonicalMapping).precomposedStringWithCanonicalMapping
        case .nfd:
            if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
            return Self.canonicalOrder(text.decomposedStringWithCanonicalMapping)
        case .nfkc:
            if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
            return Self.canonicalOrder(text.decomposedStringWithCompatibilityMapping).precomposedStringWithCanonicalMapping
        case .nfkd:
            if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
            return Self.canonicalOrder(text.decomposedStringWithCompatibilityMapping)
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

    /// Scalars that NFC never changes and that never combine with a neighbour from this list: text made only
    /// of them is already in NFC (the fast path for Latin, Cyrillic, CJK, kana, Hangul syllables, emoji).
    /// Combining marks, conjoining jamo, kana voicing marks and canonical singletons are left out.
    static func isNFCStable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0000...0x02FF, 0x0400...0x0482, 0x048A...0x052F, 0x05D0...0x05EA, 0x2002...0x206F, 0x3000...0x3029,
            0x3041...0x3096, 0x309B...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFFEF,
            0x1F300...0x1FAFF:
            return true
        default:
            return false
        }
    }

    /// Sorts each run of combining marks by canonical combining class (stable), as Unicode's
    /// canonical ordering algorithm requires.
    static func canonicalOrder(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        func combiningClass(_ scalar: Unicode.Scalar) -> UInt8 { scalar.properties.canonicalCombiningClass.rawValue }
        var changed = false
        var i = 0
        while i < scalars.count {
            guard combiningClass(scalars[i]) != 0 else {
                i += 1
                continue
            }
            var end = i
            while end < scalars.count, combiningClass(scalars[end]) != 0 { end += 1 }
            if end - i > 1 {
                for k in (i + 1)..<end {  // insertion sort: stable
                    let scalar = scalars[k]
                    var j = k
                    while j > i, combiningClass(scalars[j - 1]) > combiningClass(scalar) {
                        scalars[j] = scalars[j - 1]
                        j -= 1
                    }
                    if j != k { changed = true }
                    scalars[j] = scalar
                }
            }
            i = end
        }
        guard changed else { return text }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
