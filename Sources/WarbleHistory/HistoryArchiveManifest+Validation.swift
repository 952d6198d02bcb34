import Foundation
import WarbleText

extension HistoryArchiveManifest.Session {
    /// The longest model or voice name taken.
    static let nameLimit = 200
    /// The longest a session may have lasted (a week), in seconds; also the bound of each timing.
    static let durationLimit: Double = 7 * 86_400

    /// What is wrong with the session's fields, or nil: a creation time between 2000 and tomorrow, printable
    /// names of bounded length (they reach terminals), language tags, a finite duration and timings within a
    /// week. The archive's bytes are checked by their SHA-256; this checks what whoever wrote it claimed.
    var problem: String? {
        guard createdAt.isFinite, createdAt >= 946_684_800, createdAt <= Date().timeIntervalSince1970 + 86_400 else {
            return "was created at \(createdAt), not a time between 2000 and tomorrow"
        }
        for (field, value) in [("model", model), ("voice", voice)] {
            if let value, !PrintableText.isPrintable(value, maximumLength: Self.nameLimit) {
                return "has a \(field) name longer than \(Self.nameLimit) characters or holding control characters "
                    + "('\(PrintableText.escaped(String(value.prefix(Self.nameLimit))))')"
            }
        }
        for (field, value) in [("source", sourceLanguage), ("target", targetLanguage)] {
            if let value, !PrintableText.isLanguageTag(value) {
                return "has a \(field) language that is not a language tag ('\(PrintableText.escaped(String(value.prefix(40))))')"
            }
        }
        if let duration, !(duration.isFinite && (0...Self.durationLimit).contains(duration)) {
            return "lasted \(duration) s, not 0 to a week"
        }
        guard timings.count <= 64 else { return "has \(timings.count) timings, more than 64" }
        for (name, seconds) in timings {
            guard PrintableText.isPrintable(name, maximumLength: 64), !name.isEmpty else {
                return "has a timing whose name is empty, long or holds control characters"
            }
            guard seconds.isFinite, (0...Self.durationLimit).contains(seconds) else {
                return "has a timing \(PrintableText.escaped(name)) of \(seconds) s, not 0 to a week"
            }
        }
        return nil
    }
}
