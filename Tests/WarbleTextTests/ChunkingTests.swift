import Testing
@testable import WarbleText

@Suite struct SentenceSplitterTests {
    let splitter = SentenceSplitter()

    @Test(arguments: [
        ("Hello world. How are you? Fine!", ["Hello world.", "How are you?", "Fine!"]),
        ("Dr. Smith met Mr. Jones at St. Paul's. They talked.", ["Dr. Smith met Mr. Jones at St. Paul's.", "They talked."]),
        ("Pi is 3.14159. E is 2.718.", ["Pi is 3.14159.", "E is 2.718."]),
        ("Apples, pears, etc. are fruit. Yes.", ["Apples, pears, etc. are fruit.", "Yes."]),
        ("J. R. R. Tolkien wrote it. Really.", ["J. R. R. Tolkien wrote it.", "Really."]),
        ("Wait… what?! \"No.\" Then go.", ["Wait…", "what?!", "\"No.\"", "Then go."]),
        ("It costs e.g. five dollars vs. six.", ["It costs e.g. five dollars vs. six."]),
        ("今天天气很好。我们去公园吧！好不好？", ["今天天气很好。", "我们去公园吧！", "好不好？"]),
        ("こんにちは。「元気？」はい。", ["こんにちは。", "「元気？」", "はい。"]),
        ("No end mark here", ["No end mark here"]),
        ("  \n ", []),
        ("Мы пришли. Они ушли.", ["Мы пришли.", "Они ушли."]),
        ("مرحبا؟ نعم.", ["مرحبا؟", "نعم."]),
    ])
    func splits(_ text: String, _ expected: [String]) {
        #expect(splitter.split(text).map(String.init) == expected)
    }
}

@Suite struct TextChunkerTests {
    static let words = Set("the quick brown fox jumps over lazy dog and then runs far away into forest".split(separator: " ").map(String.init))

    /// Every chunk is a whole number of words of the input, in order, and the words are all kept.
    func checkWordsIntact(_ text: String, _ chunks: [Substring]) {
        let inWords = text.split(whereSeparator: \.isWhitespace)
        let outWords = chunks.flatMap { $0.split(whereSeparator: \.isWhitespace) }
        #expect(inWords == outWords)
    }

    @Test func shortSentencesStayWholeAndMerge() throws {
        let chunker = TextChunker(limit: .characters(60), minimumLength: 10)
        let text = "Hi. This is a longer sentence that fits. OK. Another one that also fits here."
        let chunks = try chunker.chunks(text)
        #expect(chunks.map(String.init) == ["Hi. This is a longer sentence that fits.", "OK. Another one that also fits here."])
    }

    @Test func longSentenceSplitsAtClausesThenSpaces() throws {
        let text = "The quick brown fox jumps over the lazy dog, and then it runs far away into the forest; nobody sees it again"
        let chunker = TextChunker(limit: .characters(45), minimumLength: 5)
        let chunks = try chunker.chunks(text)
        for chunk in chunks { #expect(chunk.count <= 45, "\(chunk)") }
        #expect(chunks.first.map(String.init) == "The quick brown fox jumps over the lazy dog,")
        checkWordsIntact(text, chunks)
    }

    @Test func neverCutsInsideAWord() throws {
        let text = "Supercalifragilisticexpialidocious is long, antidisestablishmentarianism too."
        // 34 characters: within `wordCutFactor` (3) times the limit, so a word, kept whole.
        let chunks = try TextChunker(limit: .characters(12), minimumLength: 1).chunks(text)
        checkWordsIntact(text, chunks)
        #expect(chunks.contains("Supercalifragilisticexpialidocious"))
    }

    @Test func measuredLimitCountsTokens() throws {
        // A "token" per word: at most 4 words per chunk.
        let chunker = TextChunker(limit: .measured(maximum: 4) { $0.split(separator: " ").count }, minimumLength: 1)
        let text = "one two three four five six seven eight nine ten."
        let chunks = try chunker.chunks(text)
        #expect(chunks.map(String.init) == ["one two three four", "five six seven eight", "nine ten."])
    }

    @Test func chineseWithoutSpacesSplitsAtCommasThenCharacters() throws {
        let text = "语音合成技术可以把文字转换成自然的声音，它在很多领域都有应用。"
        let chunks = try TextChunker(limit: .characters(12), minimumLength: 2).chunks(text)
        for chunk in chunks { #expect(chunk.count <= 12, "\(chunk)") }
        #expect(chunks.joined() == text)
    }

    @Test func chunksAreSlicesOfTheInput() throws {
        let text = "First sentence here. Second sentence there!"
        let chunks = try TextChunker(limit: .characters(25), minimumLength: 1).chunks(text)
        #expect(chunks.map(String.init) == ["First sentence here.", "Second sentence there!"])
        #expect(text[chunks[1].startIndex...] == "Second sentence there!")
    }

    @Test func zeroLimitIsAnError() {
        #expect(throws: TextError.self) { try TextChunker(limit: .characters(0)).chunks("x") }
    }
}
