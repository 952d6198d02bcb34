import Testing
@testable import WarbleText

@Suite struct TextFrontEndTests {
    @Test func ssmlThroughLexiconNormalizationAndChunking() throws {
        let lexicon = PronunciationLexicon(entries: ["Warble": .phonemes("ˈwɔːɹbəl"), "TTS": .alias("text to speech")])
        let frontEnd = TextFrontEnd(chunker: TextChunker(limit: .characters(40), minimumLength: 5), lexicon: lexicon)
        let ssml = """
            <speak>Warble does TTS. It costs $12.50, and on 3/14/2025 it spoke for 2 hours, then rested.\
            <break time="1s"/><prosody rate="fast">Bye!</prosody></speak>
            """
        let segments = try frontEnd.segments(for: ssml)
        #expect(segments.map(\.content) == [
            .phonemes("ˈwɔːɹbəl"),
            .text("does text to speech."),
            .text("It costs twelve dollars and fifty cents,"),
            .text("and on March fourteenth,"),
            .text("twenty twenty-five it spoke for two"),  // 41 characters with "hours,": cut at a space
            .text("hours,"),
            .text("then rested."),
            .pause(1),
            .text("Bye!"),
        ])
        #expect(segments.last?.prosody.rate == 1.25)
        for segment in segments { #expect(segment.text.map { $0.count <= 40 } ?? true) }
    }

    @Test func plainTextDefaultLanguage() throws {
        let frontEnd = TextFrontEnd(defaultLanguage: "zh", chunker: TextChunker(limit: .characters(100)))
        #expect(try frontEnd.segments(for: "我有3个苹果。").map(\.content) == [.text("我有三个苹果。")])
    }
}
