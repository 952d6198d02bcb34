import Foundation
import Testing
@testable import WarbleText

/// Huge inputs: the output stays bounded (about as long as the spoken digits) and the time linear.
@Suite struct EnglishRobustnessTests {
    let normalizer = EnglishNormalizer()

    static let cases: [(String, String)] = [
        ("10,000 digits", String(repeating: "1234567890", count: 1_000)),
        ("a 100,000-character word", String(repeating: "a", count: 100_000)),
        ("100,000 dollar signs", String(repeating: "$", count: 100_000)),
        ("100,000 spaced symbols", String(repeating: "- ", count: 50_000)),
        ("20,000 short numbers", String(repeating: "12 ", count: 20_000)),
        ("a long e-mail-like run", String(repeating: "a.", count: 50_000) + "@example.com"),
        ("many phone-like groups", String(repeating: "+1 ", count: 30_000)),
        ("many roman numerals", String(repeating: "Chapter IV ", count: 5_000)),
        ("40-digit number", "There are 1234567890123456789012345678901234567890 stars"),
        ("long digit run with spaces", String(repeating: "9", count: 199) + " " + String(repeating: "9", count: 201)),
    ]

    @Test(arguments: cases)
    func hugeInputStaysBounded(_ name: String, _ input: String) {
        let start = ContinuousClock.now
        let out = normalizer.normalize(input)
        let elapsed = ContinuousClock.now - start
        #expect(out.count <= input.count * 8 + 100, "\(name): \(out.count) characters out of \(input.count)")
        #expect(elapsed < .seconds(20), "\(name): \(elapsed)")
    }

    @Test func longDigitRunsAreReadInGroups() {
        let digits = String(repeating: "7", count: 300)
        let out = normalizer.normalize("pin " + digits + ".")
        #expect(out.hasPrefix("pin seven seven seven, seven seven seven"))
        #expect(out.hasSuffix("seven seven seven."))
        let spokenDigits = out.filter(\.isNumber)
        #expect(spokenDigits.isEmpty)
        #expect(normalizer.normalize("1234567890123456789012345678901234567890")
            == EnglishNumbers.digits("1234567890123456789012345678901234567890"))
    }
}
