import Foundation

/// Parsers for SSML attribute values. Each returns nil for a value it does not accept.
enum SSMLValues {
    /// `250ms`, `1.5s`, `2` (seconds in SSML 1.0 style is not allowed; a bare number is milliseconds as some
    /// engines send it).
    static func seconds(_ value: String) -> Double? {
        let v = value.trimmingCharacters(in: .whitespaces).lowercased()
        if v.hasSuffix("ms"), let n = Double(v.dropLast(2)), n >= 0, n.isFinite { return n / 1000 }
        if v.hasSuffix("s"), let n = Double(v.dropLast()), n >= 0, n.isFinite { return n }
        if let n = Double(v), n >= 0, n.isFinite { return n / 1000 }
        return nil
    }

    static let breakStrengths: [String: Double] = [
        "none": 0, "x-weak": 0.1, "weak": 0.25, "medium": 0.5, "strong": 0.75, "x-strong": 1.25,
    ]

    /// A signed or unsigned number followed by `suffix` (`+10%`, `-2st`, `150%`).
    private static func number(_ value: String, suffix: String) -> (Double, signed: Bool)? {
        guard value.hasSuffix(suffix) else { return nil }
        let body = value.dropLast(suffix.count)
        guard let n = Double(body), n.isFinite else { return nil }
        return (n, body.hasPrefix("+") || body.hasPrefix("-"))
    }

    static func rate(_ raw: String) -> Double? {
        unboundedRate(raw).flatMap { SpeechLimits.rate.contains($0) ? $0 : nil }
    }

    private static func unboundedRate(_ raw: String) -> Double? {
        let value = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let keywords: [String: Double] = ["x-slow": 0.5, "slow": 0.75, "medium": 1, "default": 1, "fast": 1.25, "x-fast": 1.75]
        if let k = keywords[value] { return k }
        if let (n, signed) = number(value, suffix: "%") {
            let factor = signed ? 1 + n / 100 : n / 100
            return factor > 0 ? factor : nil
        }
        if let n = Double(value), n > 0, n.isFinite { return n }
        return nil
    }

    /// Nominal base pitch used to turn Hz values into factors.
    static let basePitchHz = 150.0

    static func pitch(_ raw: String) -> Double? {
        unboundedPitch(raw).flatMap { SpeechLimits.pitch.contains($0) ? $0 : nil }
    }

    private static func unboundedPitch(_ raw: String) -> Double? {
        let value = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let keywords: [String: Double] = ["x-low": 0.8, "low": 0.9, "medium": 1, "default": 1, "high": 1.1, "x-high": 1.2]
        if let k = keywords[value] { return k }
        if let (n, signed) = number(value, suffix: "%") {
            let factor = signed ? 1 + n / 100 : n / 100
            return factor > 0 ? factor : nil
        }
        if let (n, _) = number(value, suffix: "st") { return pow(2, n / 12) }
        if let (n, signed) = number(value, suffix: "hz") {
            let factor = signed ? 1 + n / basePitchHz : n / basePitchHz
            return factor > 0 ? factor : nil
        }
        return nil
    }

    static func volume(_ raw: String) -> Double? {
        unboundedVolume(raw).flatMap { SpeechLimits.volume.contains($0) ? $0 : nil }
    }

    private static func unboundedVolume(_ raw: String) -> Double? {
        let value = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let keywords: [String: Double] = [
            "silent": 0, "x-soft": 0.25, "soft": 0.5, "medium": 1, "default": 1, "loud": 1.5, "x-loud": 2,
        ]
        if let k = keywords[value] { return k }
        if let (n, _) = number(value, suffix: "db") { return pow(10, n / 20) }
        if let (n, signed) = number(value, suffix: "%") {
            let factor = signed ? 1 + n / 100 : n / 100
            return factor >= 0 ? factor : nil
        }
        if let n = Double(value), n.isFinite {
            // SSML 1.0 absolute volume 0...100 (100 is the default); signed numbers are relative to it.
            let factor = value.hasPrefix("+") || value.hasPrefix("-") ? 1 + n / 100 : n / 100
            return factor >= 0 ? factor : nil
        }
        return nil
    }
}
