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
    /// Whether the next utterance continues this one mid-phrase (no pause between them).
    public var joinsNext = false
    /// Whether this is the request's first sound: the listener is waiting for its first audio, so a
    /// renderer that can stream should start with a small piece. Later utterances are rendered while
    /// earlier audio plays.
    public var opensRequest = false

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
///
/// Planning is lazy (see `SpeechPlan`): a long text is cut into blocks of a few kilobytes at sentence
/// ends, and each block is chunked only when the audio reaches it, so the first audio does not wait
/// for the whole text and memory stays flat however long it is.
public struct SpeechPlanner: Sendable {
    public var language: String
    public var chunker: TextChunker
    public var normalizers: NormalizerRegistry
    public var sentencePause: Double
    public var clausePause: Double
    /// Largest block of text chunked at once, in UTF-8 bytes.
    public var blockBytes: Int
    /// When set, the request's first utterance is cut to about this many characters (at its first
    /// clause boundary, else at a space), so that models that render whole utterances start sooner.
    public var firstChunkCharacters: Int?
    /// A pronunciation lexicon (W3C PLS) applied to the text before normalising: its aliases replace
    /// their words, its phonemes are spoken as written. Applied to the segments whose language has
    /// the lexicon's primary language (all of them when the lexicon names none).
    public var lexicon: PronunciationLexicon?

    public init(language: String, chunkLimit: TextChunker.Limit, normalizers: NormalizerRegistry = .builtIn,
                sentencePause: Double = 0.25, clausePause: Double = 0.1, blockBytes: Int = 4096) {
        self.language = language
        self.chunker = TextChunker(limit: chunkLimit)
        self.normalizers = normalizers
        self.sentencePause = sentencePause
        self.clausePause = clausePause
        self.blockBytes = blockBytes
    }

    /// The plan for `text`, to be walked with `next()`. Throws the SSML parser's error (with line and
    /// column) for malformed SSML.
    public func start(_ text: String, isSSML: Bool) throws -> SpeechPlan {
        var segments = isSSML ? try SSMLParser().parse(text) : [SpeechSegment(.text(text), sourceRange: 0..<text.utf8.count)]
        if let lexicon {
            segments = segments.flatMap { segment in
                Self.sameLanguage(lexicon.language, segment.language ?? language) ? lexicon.apply(to: [segment]) : [segment]
            }
        }
        return SpeechPlan(planner: self, segments: segments)
    }

    /// Whether a lexicon for `lexiconLanguage` (nil: any) applies to text in `language` ("en-US" and
    /// "en-us" and "en" all match).
    static func sameLanguage(_ lexiconLanguage: String?, _ language: String) -> Bool {
        guard let lexiconLanguage else { return true }
        return LanguageCode.same(lexiconLanguage, language)
    }

    /// The seconds of silence a request's `<break>` elements ask for, added up (0 for plain text).
    /// Cheap next to synthesis: it only parses the SSML.
    public static func explicitPauses(_ text: String, isSSML: Bool) throws -> Double {
        guard isSSML else { return 0 }
        var total = 0.0
        for segment in try SSMLParser().parse(text) {
            if case .pause(let seconds) = segment.content { total += seconds }
        }
        return total
    }

    /// The whole plan at once (for short texts, tests and tools).
    public func plan(_ text: String, isSSML: Bool) throws -> [PlannedItem] {
        var plan = try start(text, isSSML: isSSML)
        var items: [PlannedItem] = []
        while let item = try plan.next() { items.append(item) }
        return items
    }

    /// The utterances of one block of a text segment. `offset` is the block's UTF-8 offset in `body`.
    func utterances(_ block: Substring, offset: Int, of segment: SpeechSegment, body: String) throws -> [Utterance] {
        let language = segment.language ?? self.language
        // Offsets map into the request only when the segment's text is a verbatim slice of it.
        let verbatim = segment.sourceRange.count == body.utf8.count
        let text = String(block)
        var out: [Utterance] = []
        for chunk in try chunker.chunks(text) {
            guard chunk.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
            let start = offset + text.utf8.distance(from: text.startIndex, to: chunk.startIndex)
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
            out.append(Utterance(
                text: String(chunk), language: language, prosody: segment.prosody, voice: segment.voice,
                sourceRange: range, words: words, endsSentence: endsSentence, isNormalized: false, sayAs: segment.sayAs))
        }
        return out
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

    /// How far normalisation may lengthen an utterance before it is cut again: reading out a number
    /// of thousands of digits turns one short chunk into pages, which a model would render in one run.
    static let expansionLimit = TextChunker.wordCutFactor

    /// The utterance as it will be spoken: normalised, and cut again at the chunk limit when
    /// normalisation (or an author's `<phoneme>`) made it more than `expansionLimit` times the limit,
    /// so that one run's memory never grows with a value written in the text. The parts join without
    /// pauses; ordinary sentences stay whole.
    public func spokenParts(_ utterance: Utterance) -> [Utterance] {
        let spoken = normalized(utterance)
        let text = spoken.phonemes ?? spoken.text
        guard text.count > chunker.limit.maximum * Self.expansionLimit,
              let pieces = try? TextChunker(limit: .characters(chunker.limit.maximum)).chunks(text), pieces.count > 1
        else { return [spoken] }
        return pieces.enumerated().map { index, piece in
            var part = spoken
            if spoken.phonemes != nil { part.phonemes = String(piece) } else { part.text = String(piece) }
            let last = index == pieces.count - 1
            part.joinsNext = last ? spoken.joinsNext : true
            part.endsSentence = last && spoken.endsSentence
            part.opensRequest = index == 0 && spoken.opensRequest
            part.words = index == 0 ? spoken.words : []
            return part
        }
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

/// A plan being walked: yields items one at a time, chunking the text a block at a time.
public struct SpeechPlan: Sendable {
    private let planner: SpeechPlanner
    private let segments: [SpeechSegment]
    private var segmentIndex = 0
    /// Where the next block of the current text segment starts.
    private var cursor: String.Index?
    private var queue: [PlannedItem] = []
    private var lastSound: Utterance?
    private var saidAnything = false

    init(planner: SpeechPlanner, segments: [SpeechSegment]) {
        self.planner = planner
        self.segments = segments
    }

    /// The next item, or nil at the end. Throws `ModelError.badInput` when the whole text turns out to
    /// have nothing to say.
    public mutating func next() throws -> PlannedItem? {
        while queue.isEmpty {
            guard segmentIndex < segments.count else {
                guard saidAnything else {
                    throw ModelError(.badInput, "there is nothing to say in the text (it is empty or only punctuation and spaces)")
                }
                return nil
            }
            try fill()
        }
        return queue.removeFirst()
    }

    private mutating func fill() throws {
        let segment = segments[segmentIndex]
        switch segment.content {
        case .pause(let seconds):
            queue.append(.pause(seconds))
            lastSound = nil
            saidAnything = true
            segmentIndex += 1
        case .mark(let name):
            queue.append(.mark(name))
            segmentIndex += 1
        case .phonemes(let phonemes):
            enqueue(Utterance(text: "", phonemes: phonemes, language: segment.language ?? planner.language,
                              prosody: segment.prosody, voice: segment.voice, sourceRange: segment.sourceRange,
                              words: [segment.sourceRange], endsSentence: false))
            segmentIndex += 1
        case .text(let body):
            let start = cursor ?? body.startIndex
            guard start < body.endIndex else {
                cursor = nil
                segmentIndex += 1
                return
            }
            let end = Self.blockEnd(in: body, from: start, maxBytes: planner.blockBytes)
            let offset = body.utf8.distance(from: body.startIndex, to: start)
            for utterance in try planner.utterances(body[start..<end], offset: offset, of: segment, body: body) {
                enqueue(utterance)
            }
            cursor = end
        }
    }

    private mutating func enqueue(_ utterance: Utterance) {
        if !saidAnything, let limit = planner.firstChunkCharacters, utterance.phonemes == nil,
           let (head, tail) = Self.cutFirst(utterance, limit: limit)
        {
            enqueue(head)
            enqueue(tail)
            return
        }
        if let previous = lastSound, !previous.joinsNext {
            let pause = previous.endsSentence ? planner.sentencePause : planner.clausePause
            if pause > 0 { queue.append(.pause(pause)) }
        }
        var utterance = utterance
        utterance.opensRequest = !saidAnything
        queue.append(.utterance(utterance))
        lastSound = utterance
        saidAnything = true
    }

    /// A long first utterance cut in two: at the first clause mark (, ; : — followed by a space) within
    /// `limit` characters, else at the last space before `limit`. Nil when it is short enough or has
    /// no place to cut. Words are not changed: the two parts together say exactly the same.
    static func cutFirst(_ utterance: Utterance, limit: Int) -> (Utterance, Utterance)? {
        let text = utterance.text
        guard text.count > limit else { return nil }
        let minimum = min(12, limit / 2)
        var clauseCut: String.Index?
        var spaceCut: String.Index?
        var count = 0
        var index = text.startIndex
        while index < text.endIndex, count <= limit {
            let next = text.index(after: index)
            if count >= minimum, next < text.endIndex, text[next].isWhitespace {
                if [",", ";", ":", "—", "–"].contains(text[index]) {
                    clauseCut = next
                    break
                }
                spaceCut = next
            }
            index = next
            count += 1
        }
        guard let cut = clauseCut ?? spaceCut else { return nil }
        let cutOffset = text.utf8.distance(from: text.startIndex, to: cut)
        let tailText = text[cut...].drop(while: \.isWhitespace)
        let tailOffset = text.utf8.distance(from: text.startIndex, to: tailText.startIndex)
        let base = utterance.sourceRange.lowerBound
        let verbatim = utterance.sourceRange.count == text.utf8.count
        var head = utterance
        var tail = utterance
        head.text = String(text[..<cut])
        tail.text = String(tailText)
        head.endsSentence = false
        head.joinsNext = clauseCut == nil
        if verbatim {
            head.sourceRange = base..<(base + cutOffset)
            tail.sourceRange = (base + tailOffset)..<utterance.sourceRange.upperBound
            head.words = utterance.words.filter { $0.upperBound <= base + cutOffset }
            tail.words = utterance.words.filter { $0.lowerBound >= base + tailOffset }
        }
        return (head, tail)
    }

    /// The end of the block that starts at `start`: at most `maxBytes` on, cut after the last sentence
    /// end followed by a space, else at the last space, else at the limit.
    static func blockEnd(in text: String, from start: String.Index, maxBytes: Int) -> String.Index {
        let utf8 = text.utf8
        guard let limit = utf8.index(start, offsetBy: maxBytes, limitedBy: text.endIndex), limit < text.endIndex else {
            return text.endIndex
        }
        var sentenceCut: String.Index?
        var spaceCut: String.Index?
        var i = limit
        let floor = utf8.index(start, offsetBy: maxBytes / 4)
        while i > floor {
            let previous = utf8.index(before: i)
            let byte = utf8[previous]
            if byte == 0x20 || byte == 0x0A {
                if spaceCut == nil { spaceCut = i }
                let before = utf8.index(before: previous)
                if [0x2E, 0x21, 0x3F, 0x0A].contains(utf8[before]) || byte == 0x0A {
                    sentenceCut = i
                    break
                }
            }
            i = previous
        }
        var cut = sentenceCut ?? spaceCut ?? limit
        // Never inside a character.
        while cut > start, cut.samePosition(in: text) == nil { cut = utf8.index(before: cut) }
        return cut > start ? cut : text.endIndex
    }
}
