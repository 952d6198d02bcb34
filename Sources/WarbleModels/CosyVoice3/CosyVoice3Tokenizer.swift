import Foundation
import WarbleSpeech
import WarbleText

/// CosyVoice 3's text tokenizer: Qwen2 byte-level BPE from `vocab.json` + `merges.txt`, with the
/// added tokens `tokenizer_config.json` lists (`added_tokens_decoder`), `<|endofprompt|>` among them.
/// No BOS or EOS is added.
enum CosyVoice3Tokenizer {
    static func load(_ files: CosyVoice3Files) throws -> BPETokenizer {
        struct Config: Decodable {
            struct Added: Decodable {
                var content: String
                var special: Bool?
                var single_word: Bool?
                var lstrip: Bool?
                var rstrip: Bool?
                var normalized: Bool?
            }
            var added_tokens_decoder: [String: Added]?
        }
        let config: Config
        do {
            config = try JSONDecoder().decode(Config.self, from: Data(contentsOf: files.tokenizerConfig))
        } catch {
            throw ModelError(.badModel, "\(files.tokenizerConfig.path) does not read as a tokenizer_config.json: \(error)")
        }
        let added = (config.added_tokens_decoder ?? [:]).compactMap { key, token -> AddedToken? in
            guard let id = Int(key) else { return nil }
            return AddedToken(id: id, content: token.content, special: token.special ?? true, singleWord: token.single_word ?? false,
                              leftStrip: token.lstrip ?? false, rightStrip: token.rstrip ?? false, normalized: token.normalized ?? false)
        }.sorted { $0.id < $1.id }
        let tokenizer = try BPETokenizer(vocabulary: files.vocabulary, merges: files.merges, style: .qwen2, addedTokens: added)
        guard tokenizer.id(for: "<|endofprompt|>") == CosyVoice3LanguageModel.endOfPrompt else {
            throw ModelError(.badModel, "the tokenizer in \(files.vocabulary.deletingLastPathComponent().path) does not have "
                + "<|endofprompt|> as \(CosyVoice3LanguageModel.endOfPrompt): it is not CosyVoice 3's")
        }
        return tokenizer
    }
}
