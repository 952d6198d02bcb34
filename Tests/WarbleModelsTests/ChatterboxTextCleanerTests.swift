import Foundation
import Testing
@testable import WarbleModels
import WarbleText
import WarbleTestSupport

/// Chatterbox Turbo's `punc_norm`, against the cases tools/chatterbox/reference.py cleaned
/// (Tests/Fixtures/generated/chatterbox/golden/text.json): identical strings.
@Suite struct ChatterboxTextCleanerTests {
    struct Case: Decodable { let text: String; let cleaned: String }
    struct Golden: Decodable { let punc_norm: [Case] }

    static func golden() throws -> [Case] {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        let file = url.appendingPathComponent("Tests/Fixtures/generated/chatterbox/golden/text.json")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            Issue.record("\(file.path) is missing: run .venv/bin/python tools/chatterbox/make_fixtures.py Tests/Fixtures/generated/chatterbox")
            return []
        }
        return try JSONDecoder().decode(Golden.self, from: data).punc_norm
    }

    @Test(.needs(fixtures: "chatterbox")) func cleansAsTheAuthorsDo() throws {
        let cases = try Self.golden()
        #expect(cases.count >= 20)
        for c in cases {
            #expect(ChatterboxTextCleaner.clean(c.text) == c.cleaned, "\(c.text.debugDescription)")
        }
    }

    @Test func pythonWhiteSpaceAndFirstCodePoint() {
        // U+001F and U+3000 are white space to Python's str.split; a decomposed é upper-cases its 'e' only.
        #expect(ChatterboxTextCleaner.clean("a\u{1F}b\u{3000}c") == "A b c.")
        #expect(ChatterboxTextCleaner.clean("e\u{301}t\u{E9}") == "E\u{301}t\u{E9}.")
        // The first code point is a quote (not lower case); the trailing ", " loses its space and keeps the comma.
        #expect(ChatterboxTextCleaner.clean("“x”: y…") == "\"x\", y,")
    }
}
