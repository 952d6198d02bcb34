import Foundation
import WarbleText

/// One thing a text-to-speech pipeline does, in order: say an utterance, stay silent, or pass a mark.
public enum PlannedItem: Sendable, Equatable {
    case utterance(Utterance)
    /// Silence, in seconds.
    case pause(Double)
    /// An SSML mark, reported at the current position of the audio.
    case mark(String)
}

/// A piece of speech a model renders in one run: a sentence, or part of a long one.
public struct Utterance: Sendable, Equatable {
    /// Normalised text to phonemise (empty when `phonemes` is given).
    public var text: String
    /// Phonemes given by the author (`<phoneme ph>`), used as they are.
    public var phonemes: String?
    /// BCP 47 language of the text.
    public var language: String
    public var prosody: Prosody
    /// `<voice name>` from SSML, nil for the request's voice.
    public var voice: String?
    /// Where it came from: UTF-8 byte offsets into the request text.
    public var sourceRange: Range<Int>
    /// The words of the original (not normalised) text, as UTF-8 ranges of the request text.
    public var words: [Range<Int>]
    /// Whether a sentence ends here (the longer pause follows) rather than a clause.
    public var endsSentence: Bool
    /// Whether `text` is still as written (the planner normalises it just before it is rendered, so
    /// that a long text starts speaking without waiting for all of it to be normalised).
    public var isNormalized: Bool
    /// SSML `<say-as>` for the normaliser.
    public var sayAs: SayAs?

    public init(text: String, phonemes: String? = nil, language: String, prosody: Prosody = .neutral,
                voice: String? = nil, sourceRange: Range<Int>, words: [Range<Int>], endsSentence: Bool,
                isNormalized: Bool = true, sayAs: SayAs? = nil) {
        self.text = text
        self.phonemes = phonemes
        self.language = language
        self.prosody = prosody
        self.voice = voice
        self.sourceRange = sourceRange
        self.words = words
        self.endsSentence = endsSentence
        self.isNormalized = isNormalized
        self.sayAs = sayAs
    }
}

/// Turns a request's text or SSML into planned items: parse, chunk to the model's limit, normalise,
/// and put pauses between sentences (`sentencePause`) and between the parts of a split sentence
/// (`clausePause`).
public struct SpeechPlanner: Sendable {
    public var language: String
    public var chunker: TextChunker
    public var normalizers: NormalizerRegistry
    public var sentencePause: Double
    public var clausePause: Double

    public init(language: String, chunkLimit: TextChunker.Limit, normalizers: NormalizerRegistry = .builtIn,
                sentencePause: Double = 0.25, clausePause: Double = 0.1) {
        self.language = language
        self.chunker = TextChunker(limit: chunkLimit)
        self.normalizers = normalizers
        self.sentencePause = sentencePause
        self.clausePause = clausePause
    }

    /// The plan for `text`. Throws `ModelError.badInput` for text with nothing to say, and the SSML
    /// parser's error (with line and column) for malformed SSML.
    public func plan(_ text: String, isSSML: Bool) throws -> [PlannedItem] {
        let segments: [SpeechSegment]
        if isSSML {
            segments = try SSMLParser().parse(text)
        } else {
            segments = [SpeechSegment(.text(text), sourceRange: 0..<text.utf8.count)]
        }
        var items: [PlannedItem] = []
        for segment in segments {
            switch segment.content {
            case .pause(let seconds):
                items.append(.pause(seconds))
            case .mark(let name):
                items.append(.mark(name))
            case .phonemes(let phonemes):
                items.append(.utterance(Utterance(
                    text: "", phonemes: phonemes, language: segment.language ?? language, prosody: segment.prosody,
                    voice: segment.voice, sourceRange: segment.sourceRange, words: [segment.sourceRange],
                    endsSentence: false)))
            case .text(let body):
                items += try utterances(body, of: segment)
            }
        }
        // Pauses after utterances: a sentence pause after a sentence, a clause pause inside one,
        // none where the author already placed a break or at the very end.
        var planned: [PlannedItem] = []
        for (index, item) in items.enumerated() {
            planned.append(item)
            guard case .utterance(let utterance) = item else { continue }
            let next = items[(index + 1)...].first { if case .mark = $0 { false } else { true } }
            guard let next, case .utterance = next else { continue }
            let pause = utterance.endsSentence ? sentencePause : clausePause
            if pause > 0 { planned.append(.pause(pause)) }
        }
        guard planned.contains(where: { if case .utterance = $0 { true } else { false } })
            || planned.contains(where: { if case .pause = $0 { true } else { false } })
        else {
            throw ModelError(.badInput, "there is nothing to say in the text (it is empty or only punctuation and spaces)")
        }
        return planned
    }

    private func utterances(_ body: String, of segment: SpeechSegment) throws -> [PlannedItem] {
        let language = segment.language ?? self.language
        // Offsets map into the request only when the segment's text is a verbatim slice of it.
        let verbatim = segment.sourceRange.count == body.utf8.count
        var items: [PlannedItem] = []
        for chunk in try chunker.chunks(body) {
            guard chunk.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
            let start = body.utf8.distance(from: body.startIndex, to: chunk.startIndex)
            let range: Range<Int>
            var words: [Range<Int>] = []
            if verbatim {
                let base = segment.sourceRange.lowerBound + start
                range = base..<(base + chunk.utf8.count)
                words = Self.wordRanges(chunk).map { (base + $0.lowerBound)..<(base + $0.upperBound) }
            } else {
                range = segment.sourceRange
                words = [segment.sourceRange]
            }
            let trimmed = chunk.trimmingCharacters(in: .whitespacesAndNewlines)
            let endsSentence = trimmed.last.map { SpeechPlanner.sentenceEnds.contains($0) } ?? true
            items.append(.utterance(Utterance(
                text: String(chunk), language: language, prosody: segment.prosody, voice: segment.voice,
                sourceRange: range, words: words, endsSentence: endsSentence, isNormalized: false,
                sayAs: segment.sayAs)))
        }
        return items
    }

    /// The utterance with its text normalised (numbers, dates, units… read out), ready to phonemise.
    public func normalized(_ utterance: Utterance) -> Utterance {
        guard !utterance.isNormalized else { return utterance }
        var out = utterance
        out.isNormalized = true
        guard let normalizer = normalizers.normalizer(for: utterance.language) else { return out }
        out.text = utterance.sayAs.map { normalizer.expand(utterance.text, as: $0) } ?? normalizer.normalize(utterance.text)
        return out
    }

    static let sentenceEnds: Set<Character> = [".", "!", "?", "…", "。", "！", "？", "\"", "”", ")", "'"]

    /// UTF-8 ranges (relative to `text`) of its whitespace-separated words.
    static func wordRanges(_ text: Substring) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 0
        var start: Int?
        for scalar in text.unicodeScalars {
            let isSpace = scalar.properties.isWhitespace
            if isSpace, let s = start {
                ranges.append(s..<offset)
                start = nil
            } else if !isSpace, start == nil {
                start = offset
            }
            offset += String(scalar).utf8.count
        }
        if let s = start { ranges.append(s..<offset) }
        return ranges
    }
}
