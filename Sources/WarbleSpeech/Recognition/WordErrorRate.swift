import Foundation

/// Word error rate, for the intelligibility checks (and the Kokoro voice search's guard): (substitutions + deletions + insertions) / reference
/// words, from a word-level Levenshtein alignment, after a plain normalisation of both sides (lower
/// case, hyphens as spaces, every character that is not a letter, digit, apostrophe or space removed).
/// The sentences it is used on have no numbers, abbreviations or spelling variants, so this is
/// enough (tools/ttsbench/eval_wer.py uses Whisper's full English normaliser for its number-heavy set).
public enum WordErrorRate {
    public static func words(_ text: String) -> [String] {
        let kept = text.lowercased().replacingOccurrences(of: "-", with: " ").unicodeScalars.filter {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "'" || $0 == " "
        }
        return String(String.UnicodeScalarView(kept)).split(separator: " ").map(String.init)
    }

    /// Word-level edit distance.
    public static func errors(reference: [String], hypothesis: [String]) -> Int {
        var row = Array(0...hypothesis.count)
        for (i, r) in reference.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, h) in hypothesis.enumerated() {
                let substitution = diagonal + (r == h ? 0 : 1)
                diagonal = row[j + 1]
                row[j + 1] = min(row[j + 1] + 1, row[j] + 1, substitution)
            }
        }
        return row[hypothesis.count]
    }

    /// The WER of one transcript; 1 when the reference has no words and the transcript has some.
    public static func between(reference: String, hypothesis: String) -> Double {
        if words(reference).isEmpty { return words(hypothesis).isEmpty ? 0 : 1 }
        return rate([(reference, hypothesis)])
    }

    /// Corpus WER over pairs of (reference, transcript).
    public static func rate(_ pairs: [(reference: String, transcript: String)]) -> Double {
        var errors = 0, total = 0
        for pair in pairs {
            let reference = words(pair.reference)
            errors += self.errors(reference: reference, hypothesis: words(pair.transcript))
            total += reference.count
        }
        return total == 0 ? 0 : Double(errors) / Double(total)
    }
}
