/// espeak-ng IPA → the symbols Kokoro was trained on (misaki's alphabet), then ids from `vocab.json`.
///
/// misaki writes diphthongs and affricates as single letters (eɪ→A, aɪ→I, aʊ→W, ɔɪ→Y, oʊ→O,
/// dʒ→ʤ, tʃ→ʧ), r as ɹ, and the American flap as T. Symbols the vocabulary lacks are dropped, as the
/// reference (kokoro-onnx) does.
struct KokoroSymbols: Sendable {
    /// Longest first, so that "eɪ" wins over "e".
    static let rewrites: [(String, String)] = [
        ("eɪ", "A"), ("aɪ", "I"), ("aʊ", "W"), ("ɔɪ", "Y"), ("oʊ", "O"), ("əʊ", "O"),
        ("dʒ", "ʤ"), ("tʃ", "ʧ"), ("ɚ", "əɹ"), ("ɝ", "ɜɹ"), ("r", "ɹ"), ("ɾ", "T"), ("ɐ", "ə"),
        ("x", "k"), ("ç", "k"), ("ɬ", "l"), ("ʔ", "t"),
    ].sorted { $0.0.unicodeScalars.count > $1.0.unicodeScalars.count }

    let vocab: [Unicode.Scalar: Int64]

    init(vocab: [String: Int]) {
        var map: [Unicode.Scalar: Int64] = [:]
        for (symbol, id) in vocab {
            let scalars = Array(symbol.unicodeScalars)
            if scalars.count == 1 { map[scalars[0]] = Int64(id) }
        }
        self.vocab = map
    }

    /// misaki symbols for espeak IPA.
    static func misaki(fromIPA ipa: String) -> String {
        var scalars = Array(ipa.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        outer: while i < scalars.count {
            for (from, to) in rewrites {
                let pattern = Array(from.unicodeScalars)
                if i + pattern.count <= scalars.count, Array(scalars[i..<(i + pattern.count)]) == pattern {
                    out.append(contentsOf: to.unicodeScalars)
                    i += pattern.count
                    continue outer
                }
            }
            out.append(scalars[i])
            i += 1
        }
        scalars.removeAll()
        return String(out)
    }

    /// Token ids of misaki symbols (unknown symbols dropped).
    func ids(_ symbols: String) -> [Int64] {
        symbols.unicodeScalars.compactMap { vocab[$0] }
    }
}
