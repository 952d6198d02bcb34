import Foundation
import Testing
@testable import WarbleText
import WarbleTestSupport

/// Exact parity with Python `tokenizers` (pinned in tools/text/requirements.txt) on the >= 2,000-line corpus.
/// Tolerance: none — every id sequence and every decoded string must be identical.
@Suite(.needs(fixtures: "text")) struct TokenizerParityTests {
    struct Golden: Decodable {
        struct Case: Decodable {
            let ids: [Int]
            let plain: [Int]
            let decoded: String
            let decodedSkip: String
        }
        let cases: [Case]
    }

    static func load(_ name: String) throws -> BPETokenizer {
        let added = [
            AddedToken(id: -1, content: "<|endoftext|>"), AddedToken(id: -1, content: "<|endofprompt|>"),
            AddedToken(id: -1, content: "<|speech_123|>", special: false),
            AddedToken(id: -1, content: "<|speech_7|>", special: false),
        ]
        switch name {
        case "gpt2-pair", "qwen2-pair":
            let style = String(name.dropLast(5))
            // The pair format carries no added tokens: take their ids from the tokenizer.json made alongside.
            let json = try BPETokenizer(tokenizerJSON: Fixtures.url("\(style)/tokenizer.json"))
            let tokens = added.map { token in
                var token = token
                token.id = json.id(for: token.content) ?? -1
                return token
            }
            return try BPETokenizer(
                vocabulary: Fixtures.url("\(style)/vocab.json"), merges: Fixtures.url("\(style)/merges.txt"),
                style: style == "gpt2" ? .gpt2 : .qwen2, addedTokens: tokens)
        default:
            return try BPETokenizer(tokenizerJSON: Fixtures.url("\(name)/tokenizer.json"))
        }
    }

    @Test(arguments: ["whisper", "gpt2", "qwen2", "gpt2-pair", "qwen2-pair", "variety"])
    func matchesPythonTokenizers(_ name: String) throws {
        let corpus = try Fixtures.json("corpus.json", as: [String].self)
        let golden = try Fixtures.json("goldens/\(name).json", as: Golden.self)
        try #require(corpus.count >= 2000)
        try #require(golden.cases.count == corpus.count)
        let tokenizer = try Self.load(name)
        var failures = 0
        for (line, expected) in zip(corpus, golden.cases) {
            let ids = tokenizer.encode(line)
            let plain = tokenizer.encode(line, addSpecialTokens: false)
            let decoded = tokenizer.decode(expected.ids)
            let skipped = tokenizer.decode(expected.ids, skipSpecialTokens: true)
            if ids != expected.ids || plain != expected.plain || decoded != expected.decoded || skipped != expected.decodedSkip {
                failures += 1
                if failures <= 5 {
                    let got = plain.map { tokenizer.token(for: $0) ?? "?" }
                    let want = expected.plain.map { tokenizer.token(for: $0) ?? "?" }
                    Issue.record("\(name): \(line.debugDescription)\n got \(got)\nwant \(want)\n decoded equal: \(decoded == expected.decoded), \(skipped == expected.decodedSkip)")
                }
            }
        }
        #expect(failures == 0, "\(failures) of \(corpus.count) lines differ from Python tokenizers")
    }

    /// One tokenizer shared by many tasks (its word cache is shared too) gives the same ids as Python.
    @Test func concurrentEncodingMatches() async throws {
        let corpus = try Fixtures.json("corpus.json", as: [String].self)
        let golden = try Fixtures.json("goldens/qwen2.json", as: Golden.self)
        let tokenizer = try Self.load("qwen2")
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var failures = 0
                    for k in stride(from: worker, to: corpus.count, by: 4) where tokenizer.encode(corpus[k]) != golden.cases[k].ids {
                        failures += 1
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
