import Foundation
import Testing
@testable import WarbleText

@Suite struct PronunciationLexiconTests {
    static let pls = """
        <?xml version="1.0" encoding="UTF-8"?>
        <lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">
          <lexeme>
            <grapheme>tomato</grapheme>
            <grapheme>Tomato</grapheme>
            <phoneme>təˈmɑːtoʊ</phoneme>
          </lexeme>
          <lexeme>
            <grapheme>W3C</grapheme>
            <alias>World Wide Web Consortium</alias>
          </lexeme>
          <lexeme>
            <grapheme>New York</grapheme>
            <phoneme>nuː ˈjɔːk</phoneme>
            <phoneme prefer="true">nʊ ˈjɔɹk</phoneme>
          </lexeme>
        </lexicon>
        """

    /// Stands in for espeak-ng: marks what it was asked to phonemize.
    struct Echo: Phonemizer {
        func phonemize(_ text: String, language: String) throws -> String { "[\(text.trimmingCharacters(in: .whitespaces))]" }
    }

    @Test func parsesGraphemesAliasesAndPreferredPhonemes() throws {
        let lexicon = try PronunciationLexicon(pls: Self.pls)
        #expect(lexicon.language == "en-US")
        #expect(lexicon.entries["tomato"] == .phonemes("təˈmɑːtoʊ"))
        #expect(lexicon.entries["Tomato"] == .phonemes("təˈmɑːtoʊ"))
        #expect(lexicon.entries["W3C"] == .alias("World Wide Web Consortium"))
        #expect(lexicon.entries["New York"] == .phonemes("nʊ ˈjɔɹk"))
    }

    @Test func appliesToSegmentsOnWholeWordsOnly() throws {
        let lexicon = try PronunciationLexicon(pls: Self.pls)
        let segments = try SSMLParser().parse("<speak>The W3C likes tomatoes, a tomato in New York.</speak>")
        let out = lexicon.apply(to: segments)
        #expect(out.map(\.content) == [
            .text("The World Wide Web Consortium likes tomatoes, a "), .phonemes("təˈmɑːtoʊ"), .text(" in "),
            .phonemes("nʊ ˈjɔɹk"), .text("."),
        ])
    }

    @Test func wrapsAPhonemizer() throws {
        let phonemizer = LexiconPhonemizer(lexicon: try PronunciationLexicon(pls: Self.pls), base: Echo())
        #expect(try phonemizer.phonemize("I said tomato to the W3C", language: "en") ==
                "[I said] təˈmɑːtoʊ [to the World Wide Web Consortium]")
    }

    /// `--lexicon /etc/passwd` used to be accepted as a lexicon of nothing.
    @Test(arguments: [
        ("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n", "not a PLS lexicon"),
        ("", "not a PLS lexicon"),
        ("<lexicon version=\"1.0\"></lexicon>", "no <lexeme> entries"),
        ("<lexicon/>", "no <lexeme> entries"),
    ])
    func textThatIsNoLexiconOrHasNoEntriesIsRefused(_ text: String, _ message: String) {
        let error = #expect(throws: TextError.self) { try PronunciationLexicon(pls: text) }
        #expect(error?.kind == .lexicon && error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("<lexicon><lexeme><grapheme>a</grapheme></lexeme></lexicon>", 1, 10, "needs a <grapheme>"),
        ("<lexicon>\n<lexeme><grapheme>a</grapheme><phoneme alphabet=\"x-sampa\">a</phoneme></lexeme></lexicon>", 2, 60, "x-sampa"),
        ("<lexicon><lexeme>", 1, 18, "not closed"),
        ("<speak/>", 1, 1, "accepted: <lexicon>"),
    ])
    func malformedLexiconsGiveLineAndColumn(_ pls: String, _ line: Int, _ column: Int, _ text: String) {
        do {
            _ = try PronunciationLexicon(pls: pls)
            Issue.record("expected an error")
        } catch let error as TextError {
            #expect(error.kind == .lexicon)
            #expect(error.line == line && error.column == column && error.message.contains(text), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
