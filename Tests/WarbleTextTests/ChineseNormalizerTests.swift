import Testing
@testable import WarbleText

/// Table-driven tests per class; expected strings are exact.
@Suite struct ChineseNormalizerTests {
    let normalizer = ChineseNormalizer()

    @Test(arguments: [
        ("0", "零"), ("7", "七"), ("10", "十"), ("15", "十五"), ("20", "二十"), ("101", "一百零一"), ("110", "一百一十"),
        ("1001", "一千零一"), ("1010", "一千零一十"), ("10000", "一万"), ("10005", "一万零五"), ("10010", "一万零一十"),
        ("12345", "一万二千三百四十五"), ("100000000", "一亿"), ("100010000", "一亿零一万"), ("1,234", "一千二百三十四"),
        ("我有3个苹果", "我有三个苹果"),
    ])
    func cardinals(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("3.14", "三点一四"), ("-5", "负五"), ("-0.5", "负零点五"), ("50%", "百分之五十"), ("3.5%", "百分之三点五"),
    ])
    func decimalsNegativesPercentages(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("2025年3月14日", "二零二五年三月十四日"), ("2025-03-14", "二零二五年三月十四日"), ("4:30", "四点三十分"),
        ("16:05", "十六点零五分"), ("9:00", "九点"),
    ])
    func datesAndTimes(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("¥12.50", "十二元五角"), ("¥3.05", "三元零五分"), ("$5", "五美元"), ("13800138000", "一三八零零一三八零零零"),
        ("+8613800138000", "加八六一三八零零一三八零零零"),
    ])
    func currencyAndPhones(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test func sayAs() {
        #expect(normalizer.expand("3", as: SayAs(.ordinal)) == "第三")
        #expect(normalizer.expand("110", as: SayAs(.digits)) == "一一零")
    }
}
