import Testing
import WarbleSpeech
import WarbleText

/// The one text front end: SSML → segments → pronunciation lexicon → normalisation → chunks, as the
/// planner walks them (what `warble say --lexicon`, the server and the module use).
@Suite struct SpeechPlannerLexiconTests {
    static let lexicon = PronunciationLexicon(entries: ["Warble": .phonemes("ˈwɔːɹbəl"), "TTS": .alias("text to speech")])

    func utterances(_ text: String, isSSML: Bool = true, lexicon: PronunciationLexicon? = lexicon,
                    language: String = "en-us") throws -> [String] {
        var planner = SpeechPlanner(language: language, chunkLimit: .characters(40))
        planner.lexicon = lexicon
        return try planner.plan(text, isSSML: isSSML).compactMap { item in
            guard case .utterance(let utterance) = item else { return nil }
            if let phonemes = utterance.phonemes { return "/\(phonemes)/" }
            return planner.normalized(utterance).text.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func ssmlThroughLexiconNormalisationAndChunking() throws {
        let ssml = """
            <speak>Warble does TTS. It costs $12.50, and on 3/14/2025 it spoke for 2 hours.\
            <break time="1s"/><prosody rate="fast">Bye!</prosody></speak>
            """
        let spoken = try utterances(ssml)
        #expect(spoken.first == "/ˈwɔːɹbəl/")
        #expect(spoken.contains { $0.contains("does text to speech") })
        #expect(spoken.contains { $0.contains("twelve dollars and fifty cents") })
        #expect(!spoken.joined().contains("TTS") && !spoken.joined().contains("Warble"))
        #expect(spoken.last == "Bye!")
    }

    @Test func plainTextToo() throws {
        #expect(try utterances("I like TTS.", isSSML: false) == ["I like text to speech."])
        #expect(try utterances("I like TTS.", isSSML: false, lexicon: nil) == ["I like TTS."])
    }

    @Test func onlyWholeWordsInTheLexiconsLanguage() throws {
        #expect(try utterances("TTSes are not TTS.", isSSML: false) == ["TTSes are not text to speech."])
        let german = PronunciationLexicon(entries: ["TTS": .alias("Sprachsynthese")], language: "de-DE")
        #expect(try utterances("I like TTS.", isSSML: false, lexicon: german) == ["I like TTS."])
        #expect(try utterances("Ich mag TTS.", isSSML: false, lexicon: german, language: "de") == ["Ich mag Sprachsynthese."])
        let english = PronunciationLexicon(entries: ["TTS": .alias("speech")], language: "en-GB")
        #expect(try utterances("I like TTS.", isSSML: false, lexicon: english) == ["I like speech."])
    }
}
