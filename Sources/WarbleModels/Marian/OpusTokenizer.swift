import Foundation
import WarbleSpeech
import WarbleText

/// Opus-MT's tokenizer, as transformers' `MarianTokenizer` (5.x) encodes and decodes: the source
/// SentencePiece model cuts the text into pieces (a leading `>>xxx<<` language token kept whole),
/// `vocab.json` maps each piece to its id (a piece it lacks is `<unk>`), and `</s>` ends the row. Output
/// ids go back to pieces through `vocab.json` (an id it lacks through the SentencePiece model), the
/// special tokens (`</s>`, `<unk>`, `<pad>`) are dropped, and the pieces are joined by
/// `decode_pieces` of the source model when the vocabulary is shared (transformers' default,
/// `use_source_tokenizer = not separate_vocabs`), else of the target model.
public struct OpusTokenizer: Sendable {
    public let source: SentencePieceTokenizer
    public let target: SentencePieceTokenizer
    let encoder: [String: Int]
    let targetEncoder: [String: Int]
    let decoder: [Int: String]
    let separate: Bool
    public let eos: Int
    public let unk: Int
    public let pad: Int
    let special: Set<String>
    let unkToken: String

    public init(source: SentencePieceTokenizer, target: SentencePieceTokenizer, vocabulary: [String: Int],
                targetVocabulary: [String: Int]? = nil, tokens: OpusTokens = .init()) throws {
        self.source = source
        self.target = target
        encoder = vocabulary
        targetEncoder = targetVocabulary ?? vocabulary
        separate = targetVocabulary != nil
        var decoder: [Int: String] = [:]
        for (piece, id) in targetVocabulary ?? vocabulary { decoder[id] = piece }
        self.decoder = decoder
        func id(_ token: String, _ role: String) throws -> Int {
            guard let id = vocabulary[token] else {
                throw ModelError(.badModel, "the Opus-MT vocabulary (vocab.json) has no \(role) token \(token)")
            }
            return id
        }
        eos = try id(tokens.eos, "end-of-sentence")
        unk = try id(tokens.unk, "unknown")
        pad = try id(tokens.pad, "padding")
        special = [tokens.eos, tokens.unk, tokens.pad]
        unkToken = tokens.unk
    }

    /// The source row of `text`: its ids and `</s>` (`tokenizer(text).input_ids`).
    public func encode(_ text: String) -> [Int] {
        pieces(text, with: source).map { encoder[$0] ?? unk } + [eos]
    }

    /// The ids of `text` as a target (`tokenizer(text_target: text)`): the target model's pieces.
    public func encodeTarget(_ text: String) -> [Int] {
        pieces(text, with: target).map { targetEncoder[$0] ?? targetEncoder[unkToken] ?? unk } + [eos]
    }

    /// MarianTokenizer `_tokenize`: a text that starts with `>>` keeps everything up to the first `<<`
    /// (and it) as one token.
    func pieces(_ text: String, with model: SentencePieceTokenizer) -> [String] {
        var code: [String] = []
        var rest = Substring(text)
        if rest.hasPrefix(">>"), let end = rest.range(of: "<<") {
            code = [String(rest[..<end.upperBound])]
            rest = rest[end.upperBound...]
        }
        return code + model.encodeAsPieces(String(rest))
    }

    /// The text of output ids (`batch_decode(skip_special_tokens=True)`).
    public func decode(_ ids: [Int]) -> String {
        let model = separate ? target : source
        var pieces: [String] = []
        for id in ids {
            let piece = decoder[id] ?? model.piece(for: id) ?? "<unk>"
            if special.contains(piece) { continue }
            pieces.append(piece)
        }
        return model.decode(pieces: pieces).replacingOccurrences(of: "\u{2581}", with: " ")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The language tokens (`>>xxx<<`) of a multi-target model's vocabulary.
    public var languageTokens: [String] {
        separate ? [] : encoder.keys.filter { $0.hasPrefix(">>") && $0.hasSuffix("<<") }.sorted()
    }
}

/// The special tokens' texts (tokenizer_config.json's, as the converter recorded them).
public struct OpusTokens: Sendable, Equatable, Codable {
    public var eos = "</s>"
    public var unk = "<unk>"
    public var pad = "<pad>"

    public init() {}

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        eos = try c.decodeIfPresent(String.self, forKey: .eos) ?? "</s>"
        unk = try c.decodeIfPresent(String.self, forKey: .unk) ?? "<unk>"
        pad = try c.decodeIfPresent(String.self, forKey: .pad) ?? "<pad>"
    }
}
