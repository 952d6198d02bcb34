import Foundation
import Testing
import WarblePhonemes
import WarbleText
@testable import WarbleModels
import WarbleTestSupport

/// NeuTTS's phonemes against the authors' phonemizer on the sentence sets of
/// tools/neutts/phoneme_sentences (~360 sentences in each of en-us, de, fr-fr, es: numbers, dates,
/// abbreviations, every kind of punctuation and quote, words of other languages). The goldens are
/// `phonemizer` 3.4's EspeakBackend with neutts's options over the same libespeak-ng
/// (tools/neutts/phoneme_fixtures.py): both its raw output lines and the string neutts builds from them
/// must be equal, character for character, except for the sentences listed in `exceptions` with a reason.
@Suite struct NeuTTSPhonemeSetsTests {
    struct Sets: Decodable {
        struct Case: Decodable { let text: String; let raw: [String]; let phonemes: String }
        let languages: [String: [Case]]
    }

    /// Sentences whose phonemes may differ from the reference's, with the reason (none today).
    static let exceptions: [String: [String: String]] = [:]

    @Test(.needs(fixtures: "neutts")) func everySentenceIsTheReferences() throws {
        let url = NeuTTSSpeechTests.fixtures.appendingPathComponent("golden/phoneme_sets.json")
        let sets = try JSONDecoder().decode(Sets.self, from: try Data(contentsOf: url))
        let espeak = EspeakPhonemizer()
        #expect(Set(sets.languages.keys) == ["en-us", "de", "fr-fr", "es"])
        for (language, cases) in sets.languages.sorted(by: { $0.key < $1.key }) {
            #expect(cases.count >= 300, "\(language): \(cases.count) sentences")
            var identical = 0
            for item in cases {
                let raw = try espeak.phonemizerPackageLines(item.text, language: language)
                // What `NeuTTSPhonemes.of` makes of the same lines (without phonemising twice).
                let ours = NeuTTSPhonemes.clean(raw.first ?? "", language: language)
                if raw == item.raw && ours == item.phonemes {
                    identical += 1
                } else if Self.exceptions[language]?[item.text] == nil {
                    Issue.record("\(language): \(item.text)\n ours \(raw.debugDescription)\nwant \(item.raw.debugDescription)")
                }
            }
            print("NeuTTS phonemes, \(language): \(identical) of \(cases.count) identical to phonemizer's")
        }
    }

    /// The marks and spacing rules of `phonemizer`'s punctuation preservation, on cases built to reach
    /// each branch (values from phonemizer 3.4 with espeak-ng 1.51 on Debian 12).
    @Test func punctuationRules() throws {
        let espeak = EspeakPhonemizer()
        // "," between digits stays in the number; a run of marks with its spaces is one mark.
        #expect(try espeak.phonemizerPackageLines("1,5 ... ok", language: "en-us").count == 1)
        // Only marks: returned as they are, no space added.
        #expect(try espeak.phonemizerPackageLines("?!", language: "en-us") == ["?!"])
        #expect(try espeak.phonemizerPackageLines("", language: "en-us") == [])
        // A mark cuts at the first occurrence of its text: "2." of "2.71828." ends the first line.
        let lines = try espeak.phonemizerPackageLines("Pi is 3.14; e is 2.71828.", language: "en-us")
        #expect(lines.count == 2, "\(lines)")
        #expect(try espeak.phonemize("Pi is 3.14; e is 2.71828.", language: "en-us", convention: .phonemizerEspeak) == lines[0])
        // Language-switch flags are removed, the switched words kept.
        let french = try espeak.phonemize("J'aime le football.", language: "fr-fr", convention: .phonemizerEspeak)
        #expect(!french.contains("(") && !french.contains(")"), "\(french)")
    }

    @Test func unknownLanguageIsAClearError() {
        #expect { try EspeakPhonemizer().phonemizerPackageLines("hello", language: "xx-nothing") } throws: {
            "\($0)".contains("xx-nothing") && "\($0)".contains("en-us")
        }
    }
}
