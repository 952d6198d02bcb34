/// Chinese (Mandarin) number words: 一百二十三, 一万零五, 三点一四, 二零二五.
enum ChineseNumbers {
    static let digits: [Character] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
    static let groupUnits = ["", "万", "亿", "万亿", "亿亿"]

    /// 0...9999 with 千百十; `leadingOne` keeps 一十 (inside larger numbers) instead of 十.
    static func group(_ n: Int, leadingOne: Bool) -> String {
        let units = ["千", "百", "十", ""]
        let values = [n / 1000, n / 100 % 10, n / 10 % 10, n % 10]
        var out = ""
        var pendingZero = false
        for (k, value) in values.enumerated() {
            if value == 0 {
                if !out.isEmpty { pendingZero = true }
                continue
            }
            if pendingZero { out.append("零") }
            pendingZero = false
            if !(k == 2 && value == 1 && out.isEmpty && !leadingOne) { out.append(digits[value]) }
            out += units[k]
        }
        return out
    }

    /// Words for a string of ASCII digits; numbers beyond 亿亿 are read digit by digit.
    static func cardinal(_ digitString: some StringProtocol) -> String {
        let values = digitString.drop { $0 == "0" }.compactMap(\.wholeNumberValue)
        if values.isEmpty { return "零" }
        guard values.count <= groupUnits.count * 4 else { return self.digitByDigit(digitString) }
        var groups: [Int] = []
        var end = values.count
        while end > 0 {
            let start = max(0, end - 4)
            groups.append(values[start..<end].reduce(0) { $0 * 10 + $1 })
            end = start
        }
        var out = ""
        var needZero = false
        for index in groups.indices.reversed() {
            let value = groups[index]
            if value == 0 {
                if !out.isEmpty { needZero = true }
                continue
            }
            if !out.isEmpty, needZero || value < 1000 { out.append("零") }
            needZero = false
            out += group(value, leadingOne: !out.isEmpty) + groupUnits[index]
        }
        return out
    }

    static func digitByDigit(_ s: some StringProtocol) -> String {
        String(s.compactMap { $0.wholeNumberValue }.map { digits[$0] })
    }

    /// 三点一四
    static func decimal(_ whole: some StringProtocol, _ fraction: some StringProtocol) -> String {
        cardinal(whole.isEmpty ? "0" : String(whole)) + "点" + digitByDigit(fraction)
    }
}
