/// Word weights for word timing (`RenderedUtterance.wordWeights`) of a family that speaks text without
/// phoneme durations: one weight per whitespace-separated word, its count of letters (at least 1), so
/// that a word's share of an utterance's duration follows its length.
enum WordWeights {
    static func letters(_ text: String) -> [Int] {
        text.split(whereSeparator: \.isWhitespace).map { max(1, $0.unicodeScalars.filter { $0.properties.isAlphabetic }.count) }
    }
}
