import Foundation
import Testing
import WarbleText
@testable import WarbleModels
import WarbleTestSupport

/// The tokenizer as the real files give it: the Qwen2 `tokenizer_config.json` copied beside the graphs lists
/// only Qwen2's three added tokens, and CosyVoice 3's own tokenizer adds its ~280 special tokens at run time
/// (golden: `tokenizers`' add_special_tokens over the authors' list, tools/cosyvoice3/special_tokens.py).
@Suite(.needs(fixtures: "cosyvoice3")) struct CosyVoice3TokenizerTests {
    static let repo = CosyVoice3TestFixtures.repo

    static func load(config: URL) throws -> BPETokenizer {
        try CosyVoice3Tokenizer.load(vocabulary: repo.appendingPathComponent("vocab.json"),
                                     merges: repo.appendingPathComponent("merges.txt"), config: config)
    }

    @Test func theAuthorsSpecialTokensGetTheIDsTheirTokenizerGivesThem() throws {
        let golden = try CosyVoice3TestFixtures.json("special_tokens.json")
        let ids = try #require(golden["ids"] as? [String: Int])
        let listed = try #require(golden["config_lists"] as? [String])
        let config = try String(contentsOf: Self.repo.appendingPathComponent("tokenizer_config.json"), encoding: .utf8)
        #expect(listed == ["<|endoftext|>", "<|im_start|>", "<|im_end|>"] && !config.contains("endofprompt"),
                "the fixture reproduces the real layout: <|endofprompt|> is not in the copied files")
        let tokenizer = try Self.load(config: Self.repo.appendingPathComponent("tokenizer_config.json"))
        #expect(ids.count == CosyVoice3SpecialTokens.additional.count + 1)
        for (content, id) in ids {
            #expect(tokenizer.id(for: content) == id, "\(content)")
        }
        #expect(tokenizer.id(for: "<|endofprompt|>") == 151_646 && tokenizer.id(for: "[ǜ]") == 151_923)
        for c in try #require(golden["cases"] as? [[String: Any]]) {
            let text = try #require(c["text"] as? String)
            #expect(tokenizer.encode(text, addSpecialTokens: false) == c["ids"] as? [Int], "\(text)")
        }
    }

    @Test func aConfigThatAlreadyListsThemGivesTheSameTokenizer() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cosy-tokenizer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = try Self.load(config: Self.repo.appendingPathComponent("tokenizer_config.json"))
        var decoder: [String: [String: Any]] = [:]
        for token in full.addedTokens { decoder[String(token.id)] = ["content": token.content, "special": true] }
        let config = directory.appendingPathComponent("tokenizer_config.json")
        try JSONSerialization.data(withJSONObject: ["added_tokens_decoder": decoder]).write(to: config)
        let listed = try Self.load(config: config)
        #expect(listed.addedTokens.count == full.addedTokens.count)
        let text = "You are a helpful assistant.<|endofprompt|>[breath]Hello [laughter]."
        #expect(listed.encode(text, addSpecialTokens: false) == full.encode(text, addSpecialTokens: false))
    }

    @Test func aTokenizerWhoseEndOfPromptCannotBe151646IsRefusedClearly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cosy-tokenizer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("tokenizer_config.json")
        // Qwen2.5's files list more added tokens, so the next free id is past 151646.
        try JSONSerialization.data(withJSONObject: ["added_tokens_decoder": [
            "151643": ["content": "<|endoftext|>"], "151644": ["content": "<|im_start|>"], "151645": ["content": "<|im_end|>"],
            "151646": ["content": "<|object_ref_start|>"],
        ]]).write(to: config)
        #expect { try Self.load(config: config) } throws: { error in
            "\(error)".contains("<|endofprompt|> as 151646") && "\(error)".contains("not CosyVoice 3's")
        }
    }
}
