import Foundation

/// Mandarin normalization: dates (2025年3月14日, 2025-03-14), times (4:30), currency (¥12.50, $5),
/// percentages (百分之五十), phone numbers (read digit by digit), decimals, negatives
/// and cardinals. Deterministic; rules run in a fixed order, most specific first.
public struct ChineseNormalizer: TextNormalizing {
    public init() {}

    static func number(_ whole: String, _ fraction: String?) -> String {
        let digits = whole.replacingOccurrences(of: ",", with: "")
        return fraction.map { ChineseNumbers.decimal(digits, $0) } ?? ChineseNumbers.cardinal(digits)
    }

    static let rules: [RewriteRule] = [
        // 2025-03-14, 2025/3/14
        RewriteRule(#"\b([0-9]{4})[-/]([0-9]{1,2})[-/]([0-9]{1,2})\b"#) { m, _ in
            guard let year = m[group: 1], let month = Int(m[group: 2] ?? ""), let day = Int(m[group: 3] ?? ""),
                (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            return ChineseNumbers.digitByDigit(year) + "年" + ChineseNumbers.cardinal(String(month)) + "月"
                + ChineseNumbers.cardinal(String(day)) + "日"
        },
        // 2025年 (years are read digit by digit)
        RewriteRule(#"([0-9]{2,4})年"#) { m, _ in m[group: 1].map { ChineseNumbers.digitByDigit($0) + "年" } },
        // 4:30, 16:05:09
        RewriteRule(#"\b([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?\b"#) { m, _ in
            guard let hour = Int(m[group: 1] ?? ""), let minute = Int(m[group: 2] ?? ""), hour <= 24, minute < 60 else { return nil }
            var out = ChineseNumbers.cardinal(String(hour)) + "点"
            if minute > 0 { out += (minute < 10 ? "零" : "") + ChineseNumbers.cardinal(String(minute)) + "分" }
            if let seconds = m[group: 3].flatMap({ Int($0) }), seconds > 0 { out += ChineseNumbers.cardinal(String(seconds)) + "秒" }
            return out
        },
        // ¥12.50 / 12.50元 / $5
        RewriteRule(#"([¥￥$€£])([0-9][0-9,]*)(?:\.([0-9]{1,2}))?"#) { m, _ in
            let names: [String: String] = ["¥": "元", "￥": "元", "$": "美元", "€": "欧元", "£": "英镑"]
            guard let symbol = m[group: 1], let name = names[symbol] else { return nil }
            let whole = (m[group: 2] ?? "0").replacingOccurrences(of: ",", with: "")
            guard name == "元", let fraction = m[group: 3] else { return number(whole, m[group: 3]) + name }
            let padded = fraction.count == 1 ? fraction + "0" : fraction
            let jiao = padded.first!.wholeNumberValue!
            let fen = padded.last!.wholeNumberValue!
            var out = ChineseNumbers.cardinal(whole) + "元"
            if jiao > 0 { out += String(ChineseNumbers.digits[jiao]) + "角" }
            if fen > 0 { out += (jiao == 0 ? "零" : "") + String(ChineseNumbers.digits[fen]) + "分" }
            return out
        },
        // 50%, -3.5%
        RewriteRule(#"(-)?([0-9][0-9,]*)(?:\.([0-9]+))?\s?[%％]"#) { m, _ in
            (m[group: 1] != nil ? "负" : "") + "百分之" + number(m[group: 2] ?? "0", m[group: 3])
        },
        // phone numbers (international, with a leading 0, or 11-digit mobiles): digit by digit
        RewriteRule(#"\+[0-9]{7,}|\b0[0-9]{6,}\b|\b1[3-9][0-9]{9}\b"#) { m, _ in
            let text = String(m.output[0].substring ?? "")
            return (text.hasPrefix("+") ? "加" : "") + ChineseNumbers.digitByDigit(text)
        },
        // -12, 3.14, 1,234
        RewriteRule(#"(-)?([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]+))?"#) { m, _ in
            (m[group: 1] != nil ? "负" : "") + number(m[group: 2] ?? "0", m[group: 3])
        },
    ]

    public func normalize(_ text: String) -> String {
        Self.rules.reduce(text) { $1.apply($0) }
    }

    public func expand(_ text: String, as sayAs: SayAs) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch sayAs.interpretation {
        case .digits, .telephone, .characters, .spellOut:
            return String(trimmed.map { c in c.isASCII ? c.wholeNumberValue.map { ChineseNumbers.digits[$0] } ?? c : c })
        case .ordinal:
            let digits = trimmed.filter { $0.isASCII && $0.isNumber }
            return digits.isEmpty ? normalize(text) : "第" + ChineseNumbers.cardinal(digits)
        case .cardinal, .date, .time:
            return normalize(trimmed)
        }
    }
}
