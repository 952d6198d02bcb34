import WarbleSpeech
import Foundation

/// Word times for the segments of one window after another, as faster-whisper 1.2.1 gives them with
/// `word_timestamps=True` (`find_alignment`, `add_word_timestamps`, `merge_punctuations`): tokens
/// grouped into words, each word from the alignment's first step onto its first token to the first
/// step onto the next word, then faster-whisper's corrections of over-long words.
struct WhisperWordTimestamps {
    /// Where the last window's speech ended (faster-whisper's `last_speech_timestamp`).
    var lastSpeechTimestamp = 0.0

    static let prependPunctuations = "\"'“¿([{-"
    static let appendPunctuations = "\"'.。,，!！?？:：”)]}、"
    static let sentenceEndMarks = ".。!！?？"
    /// Encoder positions per second (50: 20 ms each).
    static let tokensPerSecond = 50.0
    static let maxMedianDuration = 0.7

    /// A word with the tokens it came from and its times in the window.
    struct Timing {
        var word: String
        var tokens: [Int]
        var start: Double
        var end: Double
        var probability: Double
    }

    /// Python's `a in b` for strings: `a` occurs in `b` (the empty string always does).
    static func occurs(_ a: String, in b: String) -> Bool {
        a.isEmpty || b.contains(a)
    }

    /// `find_alignment`: the words of `text` (token ids below end of text) with their times in the window.
    static func timings(text: [Int], alignment: WhisperAlignment, words: [(word: String, tokens: [Int])]) -> [Timing] {
        guard words.count > 1, !alignment.path.isEmpty else { return [] }
        var boundaries = [0]
        for w in words.dropLast() { boundaries.append(boundaries.last! + w.tokens.count) }
        var jumpTimes: [Double] = []
        var previous: Int?
        for point in alignment.path where point.text != previous {
            jumpTimes.append(Double(point.time) / tokensPerSecond)
            previous = point.text
        }
        guard let last = boundaries.last, last < jumpTimes.count else { return [] }
        var out: [Timing] = []
        for k in 0..<(boundaries.count - 1) {
            let (i, j) = (boundaries[k], boundaries[k + 1])
            let probabilities = alignment.tokenProbabilities[i..<min(j, alignment.tokenProbabilities.count)]
            let probability = probabilities.isEmpty ? 0 : probabilities.reduce(0, +) / Double(probabilities.count)
            out.append(Timing(word: words[k].word, tokens: words[k].tokens, start: jumpTimes[i], end: jumpTimes[j],
                              probability: probability))
        }
        return out
    }

    /// numpy's median (the mean of the middle two of an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// `merge_punctuations`: opening marks join the following word, closing marks the previous one.
    static func mergePunctuations(_ alignment: inout [Timing]) {
        guard alignment.count > 1 else { return }
        var i = alignment.count - 2, j = alignment.count - 1
        while i >= 0 {
            let previous = alignment[i]
            if previous.word.hasPrefix(" "),
               occurs(previous.word.trimmingCharacters(in: .whitespacesAndNewlines), in: prependPunctuations) {
                alignment[j].word = previous.word + alignment[j].word
                alignment[j].tokens = previous.tokens + alignment[j].tokens
                alignment[i].word = ""
                alignment[i].tokens = []
            } else {
                j = i
            }
            i -= 1
        }
        i = 0
        j = 1
        while j < alignment.count {
            let following = alignment[j]
            if !alignment[i].word.hasSuffix(" "), occurs(following.word, in: appendPunctuations) {
                alignment[i].word += following.word
                alignment[i].tokens += following.tokens
                alignment[j].word = ""
                alignment[j].tokens = []
            } else {
                i = j
            }
            j += 1
        }
    }

    /// `add_word_timestamps` for one window: fills the pieces' words and moves their starts and ends
    /// to the words'. `timeOffset`: the window's start in seconds; `endOfText`: ids at or above it are
    /// timestamps and special tokens.
    mutating func add(to pieces: inout [WhisperTranscription.Piece], timings found: [Timing], timeOffset: Double,
                      endOfText: Int) {
        var alignment = found
        let durations = alignment.map { $0.end - $0.start }.filter { $0 != 0 }
        let medianDuration = min(Self.maxMedianDuration, Self.median(durations))
        let maxDuration = medianDuration * 2
        if !durations.isEmpty {
            for i in 1..<max(1, alignment.count) where alignment[i].end - alignment[i].start > maxDuration {
                if Self.occurs(alignment[i].word, in: Self.sentenceEndMarks) {
                    alignment[i].end = alignment[i].start + maxDuration
                } else if Self.occurs(alignment[i - 1].word, in: Self.sentenceEndMarks) {
                    alignment[i].start = alignment[i].end - maxDuration
                }
            }
        }
        Self.mergePunctuations(&alignment)

        func rounded(_ t: Double) -> Double { (t * 100).rounded(.toNearestOrEven) / 100 }
        var wordIndex = 0
        for p in pieces.indices {
            let textTokens = pieces[p].tokens.filter { $0 < endOfText }.count
            var saved = 0
            var words: [TranscriptWord] = []
            while wordIndex < alignment.count, saved < textTokens {
                let timing = alignment[wordIndex]
                if !timing.word.isEmpty {
                    words.append(TranscriptWord(word: timing.word, start: rounded(timeOffset + timing.start),
                                                end: rounded(timeOffset + timing.end), probability: timing.probability))
                }
                saved += timing.tokens.count
                wordIndex += 1
            }
            if !words.isEmpty {
                // The first (and second) word after a pause: not longer than twice the median word.
                if words[0].end - lastSpeechTimestamp > medianDuration * 4,
                   words[0].end - words[0].start > maxDuration
                    || (words.count > 1 && words[1].end - words[0].start > maxDuration * 2) {
                    if words.count > 1, words[1].end - words[1].start > maxDuration {
                        let boundary = max(words[1].end / 2, words[1].end - maxDuration)
                        words[0].end = boundary
                        words[1].start = boundary
                    }
                    words[0].start = max(0, words[0].end - maxDuration)
                }
                // The segment's own start and end win over a first or last word that is too long.
                if pieces[p].start < words[0].end, pieces[p].start - 0.5 > words[0].start {
                    words[0].start = max(0, min(words[0].end - medianDuration, pieces[p].start))
                } else {
                    pieces[p].start = words[0].start
                }
                let lastWord = words.count - 1
                if pieces[p].end > words[lastWord].start, pieces[p].end + 0.5 < words[lastWord].end {
                    words[lastWord].end = max(words[lastWord].start + medianDuration, pieces[p].end)
                } else {
                    pieces[p].end = words[lastWord].end
                }
                lastSpeechTimestamp = pieces[p].end
            }
            pieces[p].words = words
        }
    }

    /// faster-whisper's `get_end`: the end of the last word of the window, or of its last piece.
    static func end(of pieces: [WhisperTranscription.Piece]) -> Double? {
        for piece in pieces.reversed() {
            if let word = piece.words?.last { return word.end }
        }
        return pieces.last?.end
    }
}

extension WhisperModel {
    /// Languages written without spaces between words: their words are split wherever the tokens
    /// decode to whole characters.
    static let unspacedLanguages: Set<String> = ["zh", "ja", "th", "lo", "my", "yue"]

    /// faster-whisper's `split_to_word_tokens`.
    func words(of tokens: [Int], language: String) -> [(word: String, tokens: [Int])] {
        Self.unspacedLanguages.contains(language) ? splitOnCharacters(tokens) : splitOnSpaces(tokens)
    }

    private func decodedScalars(_ tokens: [Int]) -> [Unicode.Scalar] {
        Array(tokenizer.decode(tokens.filter { $0 < configuration.specialTokens.timestampBegin },
                               skipSpecialTokens: true).unicodeScalars)
    }

    /// `split_tokens_on_unicode`: a word ends after each token where the text decoded so far holds no
    /// broken character (U+FFFD) that the whole text does not also hold.
    func splitOnCharacters(_ tokens: [Int]) -> [(word: String, tokens: [Int])] {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        let full = decodedScalars(tokens)
        var words: [(word: String, tokens: [Int])] = []
        var current: [Int] = []
        var offset = 0
        for token in tokens {
            current.append(token)
            let decoded = decodedScalars(current)
            let broken = decoded.firstIndex(of: replacement).map { $0 + offset }
            if broken == nil || (broken! < full.count && full[broken!] == replacement) {
                var word = String.UnicodeScalarView()
                word.append(contentsOf: decoded)
                words.append((String(word), current))
                current = []
                offset += decoded.count
            }
        }
        return words
    }

    /// `split_tokens_on_spaces`: pieces that start with a space, are punctuation, or are special
    /// tokens begin a word; the others continue the previous one.
    func splitOnSpaces(_ tokens: [Int]) -> [(word: String, tokens: [Int])] {
        let punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
        var words: [(word: String, tokens: [Int])] = []
        for (subword, pieceTokens) in splitOnCharacters(tokens) {
            let special = pieceTokens[0] >= configuration.specialTokens.eot
            let stripped = subword.trimmingCharacters(in: .whitespacesAndNewlines)
            if special || subword.hasPrefix(" ") || WhisperWordTimestamps.occurs(stripped, in: punctuation) || words.isEmpty {
                words.append((subword, pieceTokens))
            } else {
                words[words.count - 1].word += subword
                words[words.count - 1].tokens += pieceTokens
            }
        }
        return words
    }
}
