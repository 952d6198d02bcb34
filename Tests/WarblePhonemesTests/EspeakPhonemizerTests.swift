import Foundation
import Testing
import WarbleText
@testable import WarblePhonemes
import WarbleTestSupport

/// Finds generated fixtures (made by `tools/text/make_fixtures.py`, run by `scripts/test.sh`).
enum PhonemeFixtures {
    static func url(_ relative: String) throws -> URL {
        var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while root.path != "/", !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        let url = root.appendingPathComponent("Tests/Fixtures/generated/text").appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw TextError(.phonemizer, "fixture \(url.path) is missing: run scripts/test.sh (or tools/text/make_fixtures.py Tests/Fixtures/generated/text) first")
        }
        return url
    }
}

@Suite(.serialized) struct EspeakPhonemizerTests {
    struct Case: Decodable {
        let voice: String
        let text: String
        let ipa: String
    }

    let phonemizer = EspeakPhonemizer()

    /// Exact equality (no tolerance) with `espeak-ng -q --ipa -v VOICE TEXT` recorded by the fixture script.
    @Test(.needs(fixtures: "text")) func matchesTheCommandLine() throws {
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: PhonemeFixtures.url("espeak/cases.json")))
        try #require(cases.count >= 15)
        for c in cases {
            let got = try phonemizer.commandLineIPA(c.text, voice: c.voice)
            #expect(got == c.ipa, "\(c.voice): \(c.text)\n got \(got.debugDescription)\nwant \(c.ipa.debugDescription)")
        }
    }

    /// `phonemize` without its punctuation gives the command line's phonemes (exact, no tolerance).
    @Test(.needs(fixtures: "text")) func phonemizeAgreesWithTheCommandLine() throws {
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: PhonemeFixtures.url("espeak/cases.json")))
        for c in cases where c.voice.hasPrefix("en") || ["de", "fr", "es", "it", "ru"].contains(c.voice) {
            let ipa = try phonemizer.phonemize(c.text, language: c.voice)
            let words = ipa.filter { !PunctuationSplitter.kept.contains($0) }.split(whereSeparator: \.isWhitespace)
            let expected = c.ipa.split(whereSeparator: \.isWhitespace)
            #expect(words == expected, "\(c.voice): \(c.text) -> \(ipa)")
        }
    }

    @Test func keepsPunctuationAndClauses() throws {
        let ipa = try phonemizer.phonemize("Hello, world. How are you today?", language: "en-us")
        #expect(ipa == "həlˈoʊ, wˈɜːld. hˌaʊ ɑːɹ juː tədˈeɪ?")
        let spanish = try phonemizer.phonemize("¿Dónde está? Allí.", language: "es")
        #expect(spanish.hasPrefix("¿") && spanish.hasSuffix("."), "\(spanish)")
        #expect(try phonemizer.phonemize("Pi is 3.14; fine!", language: "en-us").contains(";"))
    }

    @Test func acceptsBCP47Codes() throws {
        #expect(try phonemizer.phonemize("one two", language: "en-US") == phonemizer.phonemize("one two", language: "en-us"))
        #expect(try phonemizer.phonemize("bonjour", language: "fr-FR").isEmpty == false)
    }

    @Test func hasStressMarks() throws {
        #expect(try phonemizer.phonemize("understanding", language: "en-us").contains("ˈ"))
    }

    @Test func unknownLanguageIsAClearError() {
        do {
            _ = try phonemizer.phonemize("hello", language: "xx-notalanguage")
            Issue.record("expected an error")
        } catch let error as TextError {
            #expect(error.kind == .phonemizer)
            #expect(error.message.contains("xx-notalanguage") && error.message.contains("en"), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
        // The engine still works after a failed voice change.
        #expect((try? phonemizer.phonemize("yes", language: "en-us")) == "jˈɛs")
    }

    @Test func concurrentCallsAreSerialised() async throws {
        let phonemizer = self.phonemizer
        let expected = try phonemizer.phonemize("The quick brown fox.", language: "en-us")
        let german = try phonemizer.phonemize("Guten Tag.", language: "de")
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for k in 0..<16 {
                group.addTask {
                    k % 2 == 0
                        ? try phonemizer.phonemize("The quick brown fox.", language: "en-us") == expected
                        : try phonemizer.phonemize("Guten Tag.", language: "de") == german
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test(arguments: [
        ("Hello, world.", [PunctuationSplitter.Piece.text("Hello"), .punctuation(","), .space, .text("world"), .punctuation(".")]),
        ("It costs 3.50, ok", [.text("It costs 3.50"), .punctuation(","), .space, .text("ok")]),
        ("(a b) c", [.punctuation("("), .text("a b"), .punctuation(")"), .space, .text("c")]),
        ("  spaced   out  ", [.text("spaced out")]),
    ])
    func punctuationSplitting(_ text: String, _ pieces: [PunctuationSplitter.Piece]) {
        #expect(PunctuationSplitter.split(text) == pieces)
    }
}
