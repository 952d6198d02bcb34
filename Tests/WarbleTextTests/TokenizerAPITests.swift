import Foundation
import Testing
@testable import WarbleText
import WarbleTestSupport

@Suite struct TokenizerAPITests {
    /// A tiny byte-level tokenizer.json: "a", "b", "ab", "Ġ" (space) and "Ġab", with a BOS/EOS template.
    static func tinyJSON(model: String = "BPE", extra: String = "") -> Data {
        Data("""
            {"added_tokens": [{"id": 5, "content": "<s>", "special": true, "normalized": false},
                              {"id": 6, "content": "</s>", "special": true, "normalized": false},
                              {"id": 7, "content": "<|speech_1|>", "special": false, "normalized": false}],
             "normalizer": null,
             "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true},
             "post_processor": {"type": "TemplateProcessing",
                "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                           {"SpecialToken": {"id": "</s>", "type_id": 0}}],
                "special_tokens": {"<s>": {"id": "<s>", "ids": [5], "tokens": ["<s>"]},
                                   "</s>": {"id": "</s>", "ids": [6], "tokens": ["</s>"]}}},
             "decoder": {"type": "ByteLevel"},
             "model": {"type": "\(model)", "vocab": {"a": 0, "b": 1, "ab": 2, "Ġ": 3, "Ġab": 4},
                       "merges": ["a b", ["Ġ", "ab"]] \(extra)}}
            """.utf8)
    }

    @Test func encodesWithTemplateAndAddedTokens() throws {
        let tokenizer = try BPETokenizer(tokenizerJSON: Self.tinyJSON())
        #expect(tokenizer.encode("ab ab") == [5, 2, 4, 6])
        #expect(tokenizer.encode("ab ab", addSpecialTokens: false) == [2, 4])
        #expect(tokenizer.encode("ab<|speech_1|>ab", addSpecialTokens: false) == [2, 7, 2])
        #expect(tokenizer.decode([5, 2, 4, 7, 6]) == "<s>ab ab<|speech_1|></s>")
        #expect(tokenizer.decode([5, 2, 4, 7, 6], skipSpecialTokens: true) == "ab ab<|speech_1|>")
    }

    @Test func idsAndTokensRoundTrip() throws {
        let tokenizer = try BPETokenizer(tokenizerJSON: Self.tinyJSON())
        #expect(tokenizer.id(for: "Ġab") == 4)
        #expect(tokenizer.id(for: "</s>") == 6)
        #expect(tokenizer.token(for: 4) == "Ġab")
        #expect(tokenizer.token(for: 7) == "<|speech_1|>")
        #expect(tokenizer.token(for: 99) == nil)
        #expect(tokenizer.id(for: "zzz") == nil)
        #expect(tokenizer.vocabularySize == 8)
    }

    @Test func unsupportedFilesSayWhatIsAccepted() {
        #expect {
            try BPETokenizer(tokenizerJSON: Self.tinyJSON(model: "WordPiece"))
        } throws: { error in
            (error as? TextError)?.message.contains("accepted: BPE") == true
        }
        #expect {
            try BPETokenizer(tokenizerJSON: Data("{".utf8))
        } throws: { error in
            (error as? TextError)?.kind == .tokenizerFile
        }
        #expect {
            try BPETokenizer(tokenizerJSON: Self.tinyJSON(extra: #", "continuing_subword_prefix": "@@""#))
        } throws: { error in
            (error as? TextError)?.message.contains("continuing_subword_prefix") == true
        }
    }

    /// The hand-compiled GPT-2 and Qwen2 patterns split like Swift's regex engine running the same
    /// pattern (scalar semantics) on every corpus line. Exact: no line may differ.
    @Test(.needs(fixtures: "text")) func handCompiledPatternsAgreeWithTheRegexEngine() throws {
        let corpus = try Fixtures.json("corpus.json", as: [String].self)
        try #require(corpus.count > 200)
        let pairs: [(any PatternMatcher, RegexPattern)] = [
            (GPT2Pattern(), try RegexPattern(GPT2Pattern.source)),
            (QwenPattern(maxDigits: 1), try RegexPattern(QwenPattern.qwen2Source)),
            (QwenPattern(maxDigits: 3), try RegexPattern(QwenPattern.llama3Source)),
        ]
        var differences = 0
        for line in corpus {
            let bytes = Array(line.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                for (fast, regex) in pairs {
                    var a: [Range<Int>] = []
                    var b: [Range<Int>] = []
                    fast.matches(in: buffer, 0..<buffer.count, into: &a)
                    regex.matches(in: buffer, 0..<buffer.count, into: &b)
                    if a != b {
                        differences += 1
                        if differences <= 3 { Issue.record("\(type(of: fast)) differs on \(line.debugDescription)") }
                    }
                }
            }
        }
        #expect(differences == 0)
    }
}
