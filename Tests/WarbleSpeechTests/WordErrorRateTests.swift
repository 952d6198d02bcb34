import Testing
import WarbleSpeech

/// `WordErrorRate`: word-level edits over reference words, after lower-casing and dropping punctuation.
@Suite struct WordErrorRateTests {
    @Test func editsOverReferenceWords() {
        #expect(WordErrorRate.words("Hello, World! It's well-known.") == ["hello", "world", "it's", "well", "known"])
        #expect(WordErrorRate.between(reference: "the cat sat on the mat", hypothesis: "The cat sat on the mat.") == 0)
        // One substitution, one deletion, one insertion over six words.
        #expect(WordErrorRate.between(reference: "the cat sat on the mat", hypothesis: "a cat sat the mat today") == 3.0 / 6)
        #expect(WordErrorRate.between(reference: "", hypothesis: "") == 0)
        #expect(WordErrorRate.between(reference: "", hypothesis: "hallucinated words") == 1)
        // A corpus rate weighs each pair by its reference words.
        #expect(WordErrorRate.rate([("one two three four", "one two three four"), ("five six", "five")]) == 1.0 / 6)
    }
}
