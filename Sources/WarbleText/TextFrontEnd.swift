/// The text path in front of a model: SSML (or plain text) → segments → pronunciation lexicon →
/// normalization → chunks no longer than the model's limit. Pipelines phonemize or tokenize the
/// `.text` segments it returns and use `.phonemes` segments as they are.
public struct TextFrontEnd: Sendable {
    public var parser: SSMLParser
    public var lexicon: PronunciationLexicon?
    public var normalizers: NormalizerRegistry
    public var chunker: TextChunker
    /// Language of text outside any `xml:lang` (BCP 47).
    public var defaultLanguage: String

    public init(
        defaultLanguage: String = "en", chunker: TextChunker, lexicon: PronunciationLexicon? = nil,
        normalizers: NormalizerRegistry = .builtIn, parser: SSMLParser = SSMLParser()
    ) {
        self.defaultLanguage = defaultLanguage
        self.chunker = chunker
        self.lexicon = lexicon
        self.normalizers = normalizers
        self.parser = parser
    }

    /// Segments ready for a model. Every text segment fits the chunker's limit (except a single word longer
    /// than it); chunks keep the attributes and the source range of the segment they came from.
    public func segments(for input: String) throws -> [SpeechSegment] {
        var segments = try parser.parse(input)
        if let lexicon { segments = lexicon.apply(to: segments) }
        segments = normalizers.normalize(segments, defaultLanguage: defaultLanguage)
        return try chunker.chunks(of: segments)
    }
}

extension TextChunker {
    /// Splits the text segments into chunks; other segments pass through unchanged.
    public func chunks(of segments: [SpeechSegment]) throws -> [SpeechSegment] {
        var out: [SpeechSegment] = []
        for segment in segments {
            guard let text = segment.text else {
                out.append(segment)
                continue
            }
            for chunk in try chunks(text) { out.append(segment.with(.text(String(chunk)))) }
        }
        return out
    }
}
