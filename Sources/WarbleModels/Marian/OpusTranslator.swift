import Foundation
import ONNXRuntime
import WarbleSpeech
import WarbleText

/// An Opus-MT model (transformers' MarianMTModel, converted by tools/marian/convert_opus.py): one
/// language pair. Text is translated line by line and each line sentence by sentence
/// (`SentenceSplitter`: Opus-MT was trained on sentences), each decoded as transformers' `generate`
/// decodes it (`OpusDecoding`): greedy, or by beam search with the generation config's beams.
public final class OpusTranslator: TextTranslator {
    public let modelID: String
    /// The first of `languagePairs`.
    public let pair: LanguagePair
    /// One pair, or one a target of a multi-target model (its manifest's source, then its targets).
    public let languagePairs: [LanguagePair]
    public var searchesBeams: Bool { true }

    public let tokenizer: OpusTokenizer
    let decoding: OpusDecoding
    /// The generation config's beams (`num_beams`).
    public let defaultBeams: Int
    /// The `>>xxx<<` token a multi-target model is given for each target language.
    let languageTokens: [String: String]
    let splitter: SentenceSplitter

    public convenience init(directory: URL, pair: LanguagePair, modelID: String, configuration: MarianConfiguration,
                            sessionOptions: SessionOptions = .init()) throws {
        try self.init(directory: directory, pairs: [pair], modelID: modelID, configuration: configuration, sessionOptions: sessionOptions)
    }

    public init(directory: URL, pairs: [LanguagePair], modelID: String, configuration: MarianConfiguration,
                sessionOptions: SessionOptions = .init()) throws {
        guard let pair = pairs.first else { throw ModelError(.badModel, "\(modelID): its manifest names no language pair") }
        self.modelID = modelID
        self.pair = pair
        languagePairs = pairs
        splitter = SentenceSplitter(language: pair.source)
        guard let generation = configuration.opus else {
            throw ModelError(.badModel, "\(modelID): its manifest's config is not an Opus-MT one (kind \(configuration.kind))")
        }
        func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
        let needed = ["encoder.onnx", "decoder.onnx", "source.spm", "target.spm", "vocab.json"]
            + (generation.separateVocabularies ? ["target_vocab.json"] : [])
        let missing = needed.filter { !FileManager.default.fileExists(atPath: url($0).path) }
        guard missing.isEmpty else {
            throw ModelError(.badModel, "the Opus-MT model in \(directory.path) lacks \(missing.joined(separator: ", ")): pull it again "
                + "(warble models pull \(modelID))")
        }
        func vocabulary(_ name: String) throws -> [String: Int] {
            do { return try JSONDecoder().decode([String: Int].self, from: Data(contentsOf: url(name))) } catch {
                throw ModelError(.badModel, "\(modelID): \(name) is not a JSON object of token ids: \(error)")
            }
        }
        func spm(_ name: String) throws -> SentencePieceTokenizer {
            do { return try SentencePieceTokenizer(contentsOf: url(name)) } catch {
                throw ModelError(.badModel, "\(modelID): cannot read its SentencePiece model \(name): \(error)")
            }
        }
        tokenizer = try OpusTokenizer(source: try spm("source.spm"), target: try spm("target.spm"), vocabulary: try vocabulary("vocab.json"),
                                      targetVocabulary: generation.separateVocabularies ? try vocabulary("target_vocab.json") : nil,
                                      tokens: generation.tokens)
        let decoder = try OpusDecoder(url: url("decoder.onnx"), options: sessionOptions)
        guard tokenizer.eos < decoder.vocabularySize, generation.start < decoder.vocabularySize else {
            throw ModelError(.badModel, "\(modelID): its ids (eos \(tokenizer.eos), start \(generation.start)) do not fit its "
                + "\(decoder.vocabularySize) logits")
        }
        decoding = OpusDecoding(encoder: try MarianEncoder(url: url("encoder.onnx"), options: sessionOptions), decoder: decoder,
                                eos: tokenizer.eos, generation: generation, maxLength: generation.maxLength)
        defaultBeams = configuration.beamSize
        let tokens = Set(tokenizer.languageTokens)
        var byLanguage: [String: String] = [:]
        for target in pairs.map(\.target) {
            let primary = LanguageCode.primary(target)
            if let token = generation.languageTokens[primary] ?? OpusLanguageTokens.token(for: target, among: tokens) {
                byLanguage[primary] = token
            }
        }
        languageTokens = byLanguage
    }

    /// The source row of a sentence (`tokenizer(sentence).input_ids`).
    public func sourceIDs(_ sentence: String) -> [Int] { tokenizer.encode(sentence) }

    /// The output ids of one sentence, as given (no splitting).
    public func translationIDs(ofSentence sentence: String, beamSize: Int? = nil) throws -> [Int] {
        try decoding.decode(sourceIDs(sentence), beamSize: beamSize ?? defaultBeams)
    }

    /// One sentence, as given: `batch_decode(generate(...), skip_special_tokens=True)`; a multi-target
    /// model is given the `>>xxx<<` token of `target` (nil: the first pair's) before it.
    public func translate(sentence: String, beamSize: Int? = nil, target: String? = nil, options: RunOptions? = nil,
                          cancel: CancellationToken? = nil) throws -> String {
        let token = languageTokens[LanguageCode.primary(target ?? pair.target)]
        let text = token.map { "\($0) \(sentence)" } ?? sentence
        return tokenizer.decode(try decoding.decode(sourceIDs(text), beamSize: beamSize ?? defaultBeams, options: options,
                                                             cancel: cancel))
    }

    /// The sentences of one line, as they are translated.
    public func sentences(ofLine line: String) -> [String] { splitter.split(line).map(String.init) }

    /// What joins the translations of a line's sentences.
    var separator: String { LanguageCode.usesSpaces(pair.target) ? " " : "" }

    public func pieces(ofLine line: String) -> (pieces: [String], separator: String)? { (sentences(ofLine: line), separator) }

    public func translate(line: String, beamSize: Int? = nil, target: String? = nil, options: RunOptions? = nil,
                          cancel: CancellationToken? = nil) throws -> String {
        try sentences(ofLine: line).map { try translate(sentence: $0, beamSize: beamSize, target: target, options: options, cancel: cancel) }.filter { !$0.isEmpty }
            .joined(separator: LanguageCode.usesSpaces(target ?? pair.target) ? " " : "")
    }

    public func translate(_ text: String, pair: LanguagePair) async throws -> String {
        try await translate(text, pair: pair, beamSize: nil)
    }

    public func translate(_ text: String, pair: LanguagePair, beamSize: Int?) async throws -> String {
        guard let asked = languagePairs.first(where: {
            LanguageCode.same(pair.source, $0.source) && LanguageCode.same(pair.target, $0.target)
        }) else {
            throw ModelError(.badInput, "\(modelID) translates \(languagePairs.map(\.description).joined(separator: ", ")), not \(pair)")
        }
        let translator = self
        return try await BlockingWork.run(cancel: CancellationToken()) { cancel in
            try cancel.withRunOptions { options in
                try text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    try cancel.check()
                    return try translator.translate(line: String(line), beamSize: beamSize, target: asked.target, options: options,
                                                    cancel: cancel)
                }.joined(separator: "\n")
            }
        }
    }
}

/// The `>>xxx<<` tokens of multi-target Opus-MT models (ISO 639-3, some with a script: `>>jpn<<`,
/// `>>zho_Hans<<`): the one for a language code.
enum OpusLanguageTokens {
    static let threeLetter: [String: String] = [
        "ar": "ara", "bg": "bul", "ca": "cat", "cs": "ces", "da": "dan", "de": "deu", "el": "ell", "en": "eng", "es": "spa",
        "et": "est", "fa": "fas", "fi": "fin", "fr": "fra", "he": "heb", "hi": "hin", "hu": "hun", "id": "ind", "it": "ita",
        "ja": "jpn", "ko": "kor", "lt": "lit", "lv": "lav", "nl": "nld", "no": "nob", "nb": "nob", "pl": "pol", "pt": "por",
        "ro": "ron", "ru": "rus", "sk": "slk", "sl": "slv", "sv": "swe", "sw": "swa", "th": "tha", "tr": "tur", "uk": "ukr",
        "vi": "vie", "zh": "zho", "cy": "cym", "is": "isl", "ka": "kat", "kk": "kaz", "ne": "nep", "sr": "srp", "ml": "mal",
        "te": "tel", "ur": "urd", "lb": "ltz",
    ]

    static func token(for language: String, among tokens: Set<String>) -> String? {
        let base = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { String($0).lowercased() } ?? language
        var names = [base]
        if let three = threeLetter[base] { names.append(three) }
        if base == "zh" { names += ["cmn_Hans", "zho_Hans", "cmn"] }
        if base == "ja" { names.append("jpn_Jpan") }
        return names.map { ">>\($0)<<" }.first { tokens.contains($0) }
    }
}
