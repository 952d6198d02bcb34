import Foundation
import Testing
@testable import WarbleModels
import WarbleText

/// The goldens of tools/cosytext/make_fixtures.py (the model authors' text front end in Python).
enum CosyVoiceTextFixtures {
    static let command = ".venv/bin/python tools/cosytext/make_fixtures.py Tests/Fixtures/generated/cosytext"

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "fixture \(path) is missing: run scripts/test.sh (or \(CosyVoiceTextFixtures.command)) first" }
    }

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let normalized: String
        let chinese: Bool?
        let pieces: [String]
        let counts: [Int]
        let error: Bool
        var testDescription: String { name }
    }

    struct Added: Decodable {
        let id: Int
        let content: String
    }

    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent("Tests/Fixtures/generated/cosytext")
    }()

    static func url(_ relative: String) throws -> URL {
        let url = directory.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: url.path) }
        return url
    }

    /// The cases, or one case naming the missing file (so that the parametrised test fails when its trait
    /// does not skip it: under WARBLE_REQUIRE_FIXTURES=1).
    static func cases() -> [Case] {
        do {
            struct File: Decodable { let cases: [Case] }
            return try JSONDecoder().decode(File.self, from: Data(contentsOf: url("cases.json"))).cases
        } catch {
            return [Case(name: "missing: \(error)", text: "", normalized: "", chinese: nil, pieces: [], counts: [], error: false)]
        }
    }

    /// The small Qwen2-style tokenizer the script trained, loaded from its vocab.json + merges.txt pair.
    static func tokenizer() throws -> BPETokenizer {
        let added = try JSONDecoder().decode([Added].self, from: Data(contentsOf: url("tokenizer/added_tokens.json")))
        return try BPETokenizer(
            vocabulary: url("tokenizer/vocab.json"), merges: url("tokenizer/merges.txt"), style: .qwen2,
            addedTokens: added.map { AddedToken(id: $0.id, content: $0.content) })
    }
}

/// The script's stand-in for the authors' `spell_out_number`: each run of digits (Python's
/// `str.isdigit`), one word per digit.
struct DigitByDigitReader: TextNormalizing {
    static let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

    func normalize(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var run: [String] = []
        func flush() {
            if !run.isEmpty { out.append(contentsOf: run.joined(separator: " ").unicodeScalars) }
            run.removeAll()
        }
        for scalar in text.unicodeScalars {
            let type = scalar.properties.numericType
            if type == .decimal || type == .digit, let value = scalar.properties.numericValue {
                run.append(Self.words[Int(value)])
            } else {
                flush()
                out.append(scalar)
            }
        }
        flush()
        return String(out)
    }

    func expand(_ text: String, as sayAs: SayAs) -> String { normalize(text) }
}
