import Foundation

/// A byte-level BPE tokenizer with the behaviour of Hugging Face `tokenizers` for GPT-2, Qwen2,
/// Llama 3 and Whisper style files: added tokens are matched first, then normalization,
/// pre-tokenization, BPE merges and the post-processor template.
///
/// Immutable and `Sendable`: share one instance between tasks.
public struct BPETokenizer: Sendable {
    /// Pre-tokenizer presets for the `vocab.json` + `merges.txt` pair.
    public enum Style: Sendable {
        /// GPT-2: ByteLevel with GPT-2's regex, no normalizer.
        case gpt2
        /// Qwen2: NFC, then Qwen2's regex (single digits) and ByteLevel without regex.
        case qwen2
        /// Llama 3: Qwen2's regex with up to three digits together, merges ignored for whole-vocabulary words.
        case llama3
    }

    let model: BPEModel
    let normalizer: TextNormalizer?
    let preTokenizer: PreTokenizer
    let postProcessor: PostProcessor
    let rawAdded: AddedTokenMatcher
    let normalizedAdded: AddedTokenMatcher
    let addedByID: [Int32: AddedToken]
    let addedIDs: [String: Int32]
    let decodesBytes: Bool
    let cache = WordCache()

    /// The added tokens (specials and others) the tokenizer matches before splitting.
    public let addedTokens: [AddedToken]

    /// Loads a Hugging Face `tokenizer.json`.
    public init(tokenizerJSON url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw TextError(.tokenizerFile, "cannot read \(url.path): \(error.localizedDescription)")
        }
        try self.init(tokenizerJSON: data)
    }

    /// Parses the contents of a Hugging Face `tokenizer.json`.
    public init(tokenizerJSON data: Data) throws {
        let file = try TokenizerFile(data: data)
        self.init(
            model: file.model, normalizer: file.normalizer, preTokenizer: file.preTokenizer,
            postProcessor: file.postProcessor, addedTokens: file.addedTokens, decodesBytes: file.decodesBytes)
    }

    /// Loads the `vocab.json` + `merges.txt` pair of GPT-2 / Qwen2 style models. Added tokens (which those
    /// models list in `tokenizer_config.json` or `added_tokens.json`) are passed in.
    public init(vocabulary: URL, merges: URL, style: Style, addedTokens: [AddedToken] = []) throws {
        let vocab: [String: Int32]
        do {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: vocabulary))
            guard let dictionary = object as? [String: Int] else {
                throw TextError(.tokenizerFile, "\(vocabulary.lastPathComponent) is not an object of token to integer id")
            }
            vocab = dictionary.mapValues { Int32($0) }
        } catch let error as TextError {
            throw error
        } catch {
            throw TextError(.tokenizerFile, "cannot read \(vocabulary.path) as JSON: \(error)")
        }
        let text: String
        do { text = try String(contentsOf: merges, encoding: .utf8) } catch {
            throw TextError(.tokenizerFile, "cannot read \(merges.path): \(error.localizedDescription)")
        }
        var pairs: [(String, String)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line[...]
            if trimmed.isEmpty || (number == 0 && trimmed.hasPrefix("#version")) { continue }
            guard let pair = TokenizerFile.mergeLine(trimmed) else {
                throw TextError(.tokenizerFile, "\(merges.lastPathComponent) line \(number + 1) is \"\(trimmed)\"; accepted: two tokens separated by one space")
            }
            pairs.append(pair)
        }
        let model = try BPEModel(vocab: vocab, merges: pairs, ignoreMerges: style == .llama3, unknownToken: nil)
        let normalizer: TextNormalizer?
        let preTokenizer: PreTokenizer
        switch style {
        case .gpt2:
            normalizer = nil
            preTokenizer = .byteLevel(addPrefixSpace: false, useRegex: true)
        case .qwen2, .llama3:
            normalizer = style == .qwen2 ? .nfc : nil
            preTokenizer = .sequence([
                .split(QwenPattern(maxDigits: style == .qwen2 ? 1 : 3), .isolated, invert: false),
                .byteLevel(addPrefixSpace: false, useRegex: false),
            ])
        }
        self.init(
            model: model, normalizer: normalizer, preTokenizer: preTokenizer, postProcessor: .none,
            addedTokens: addedTokens, decodesBytes: true)
    }

    init(
        model: BPEModel, normalizer: TextNormalizer?, preTokenizer: PreTokenizer, postProcessor: PostProcessor,
        addedTokens: [AddedToken], decodesBytes: Bool
    ) {
        self.model = model
        self.normalizer = normalizer
        self.preTokenizer = preTokenizer
        self.postProcessor = postProcessor
        self.addedTokens = addedTokens
        self.decodesBytes = decodesBytes
        // Normalized added tokens are matched in normalized text, so their content is normalized too; like
        // Hugging Face, `token(for:)` and `decode` then give the normalized form, `id(for:)` takes the raw one.
        let matchable = addedTokens.map { token in
            var token = token
            if token.normalized, let normalizer { token.content = normalizer.apply(token.content) }
            return token
        }
        rawAdded = AddedTokenMatcher(matchable.filter { !$0.normalized })
        normalizedAdded = AddedTokenMatcher(matchable.filter(\.normalized))
        var byID: [Int32: AddedToken] = [:]
        var ids: [String: Int32] = [:]
        for (token, raw) in zip(matchable, addedTokens) {
            byID[Int32(token.id)] = token
            ids[raw.content] = Int32(raw.id)
        }
        addedByID = byID
        addedIDs = ids
    }

    /// The same tokenizer with `tokens` added after its own added tokens (Hugging Face's `add_tokens` /
    /// `add_special_tokens` with the ids already chosen); the vocabulary and merges are not read again.
    public func adding(_ tokens: [AddedToken]) -> BPETokenizer {
        BPETokenizer(model: model, normalizer: normalizer, preTokenizer: preTokenizer, postProcessor: postProcessor,
                     addedTokens: addedTokens + tokens, decodesBytes: decodesBytes)
    }

    /// Number of ids: the model's vocabulary and the added tokens.
    public var vocabularySize: Int {
        max(model.tokens.count, (addedByID.keys.max().map { Int($0) + 1 }) ?? 0)
    }

    /// The id of a token (as written in the vocabulary, byte-level characters included), or nil.
    public func id(for token: String) -> Int? {
        (addedIDs[token] ?? model.tokenIDs[token]).map(Int.init)
    }

    /// The token an id stands for, or nil for an id outside the vocabulary.
    public func token(for id: Int) -> String? {
        if let added = addedByID[Int32(truncatingIfNeeded: id)] { return added.content }
        guard id >= 0, id < model.tokens.count else { return nil }
        return model.tokens[id]
    }
}
