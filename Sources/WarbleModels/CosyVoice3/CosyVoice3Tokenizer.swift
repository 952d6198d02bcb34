import Foundation
import WarbleSpeech
import WarbleText

/// CosyVoice 3's text tokenizer: Qwen2 byte-level BPE from `vocab.json` + `merges.txt`, with the
/// added tokens `tokenizer_config.json` lists (`added_tokens_decoder`), completed with the authors' own
/// special tokens as their tokenizer adds them at run time (`CosyVoice3SpecialTokens`), so that
/// `<|endofprompt|>` is 151646 whether or not the copied files list it. No BOS or EOS is added.
enum CosyVoice3Tokenizer {
    static func load(_ files: CosyVoice3Files) throws -> BPETokenizer {
        try load(vocabulary: files.vocabulary, merges: files.merges, config: files.tokenizerConfig)
    }

    static func load(vocabulary: URL, merges: URL, config configURL: URL) throws -> BPETokenizer {
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
            config = try JSONDecoder().decode(Config.self, from: Data(contentsOf: configURL))
        } catch {
            throw ModelError(.badModel, "\(configURL.path) does not read as a tokenizer_config.json: \(error)")
        }
        let added = (config.added_tokens_decoder ?? [:]).compactMap { key, token -> AddedToken? in
            guard let id = Int(key) else { return nil }
            return AddedToken(id: id, content: token.content, special: token.special ?? true, singleWord: token.single_word ?? false,
                              leftStrip: token.lstrip ?? false, rightStrip: token.rstrip ?? false, normalized: token.normalized ?? false)
        }.sorted { $0.id < $1.id }
        let listed = try BPETokenizer(vocabulary: vocabulary, merges: merges, style: .qwen2, addedTokens: added)
        let tokenizer = listed.adding(CosyVoice3SpecialTokens.missing(from: listed))
        guard tokenizer.id(for: "<|endofprompt|>") == CosyVoice3LanguageModel.endOfPrompt else {
            throw ModelError(.badModel, "the tokenizer in \(vocabulary.deletingLastPathComponent().path) does not have "
                + "<|endofprompt|> as \(CosyVoice3LanguageModel.endOfPrompt): it is not CosyVoice 3's")
        }
        return tokenizer
    }
}
