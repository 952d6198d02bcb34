/// Where the words of an utterance start in its audio.
///
/// The first word's start is exact: it is the chunk edge. Inside a chunk the model gives no
/// alignment, so later words are placed in proportion to their phoneme counts (`weights`, one per
/// phonemised word) when the phonemes split into as many words as the source has; otherwise in
/// proportion to the source words' lengths in bytes.
enum WordTiming {
    static func events(words: [Range<Int>], weights: [Int], sampleCount: Int) -> [SpeechEvent] {
        guard !words.isEmpty else { return [] }
        let lengths = weights.count == words.count && weights.allSatisfy({ $0 > 0 }) ? weights : words.map(\.count)
        let total = max(1, lengths.reduce(0, +))
        var events: [SpeechEvent] = []
        var before = 0
        for (index, word) in words.enumerated() {
            let offset = Int((Double(before) / Double(total) * Double(sampleCount)).rounded())
            events.append(.word(sourceRange: word, sampleOffset: min(offset, sampleCount), estimated: index > 0))
            before += lengths[index]
        }
        return events
    }
}
