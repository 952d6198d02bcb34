import Testing
import WarbleSpeechd

@Suite struct SpeechSettingsTests {
    func settings(_ lines: [(String, String)]) throws -> SpeechSettings {
        var settings = SpeechSettings()
        for (name, value) in lines { try settings.apply(Setting(name, value)) }
        return settings
    }

    @Test func defaultsAreNeutral() {
        let settings = SpeechSettings()
        #expect(settings.rateFactor == 1)
        #expect(settings.pitchFactor == 1)
        #expect(settings.volumeFactor == 1)
    }

    @Test func scalesMapFromMinus100To100() throws {
        let low = try settings([("rate", "-100"), ("pitch", "-100"), ("volume", "-100")])
        #expect(abs(low.rateFactor - 1.0 / 3) < 1e-12)
        #expect(abs(low.pitchFactor - 0.5.squareRoot()) < 1e-12)
        #expect(low.volumeFactor == 0)
        let high = try settings([("rate", "100"), ("pitch", "100"), ("volume", "0")])
        #expect(abs(high.rateFactor - 3) < 1e-12)
        #expect(abs(high.pitchFactor - 2.0.squareRoot()) < 1e-12)
        #expect(high.volumeFactor == 0.5)
        // Out of range values are clamped, not refused.
        #expect(try settings([("rate", "250")]).rate == 100)
    }

    @Test func stringSettingsAndNull() throws {
        let s = try settings([("punctuation_mode", "all"), ("spelling_mode", "on"), ("cap_let_recogn", "spell"),
                              ("voice", "FEMALE1"), ("synthesis_voice", "en_US-joe-medium"), ("language", "en-US"),
                              ("pitch_range", "0"), ("some_future_setting", "x")])
        #expect(s.punctuation == .all)
        #expect(s.spelling)
        #expect(s.capitalLetters == .spell)
        #expect(s.voiceType == "female1")
        #expect(s.synthesisVoice == "en_US-joe-medium")
        #expect(s.language == "en-US")
        let cleared = try settings([("synthesis_voice", "x"), ("synthesis_voice", "NULL"), ("language", "NULL")])
        #expect(cleared.synthesisVoice == nil)
        #expect(cleared.language == nil)
    }

    @Test(arguments: [("rate", "fast"), ("punctuation_mode", "loud"), ("spelling_mode", "maybe"), ("cap_let_recogn", "x")])
    func badValuesAreRefusedWithWhatIsAccepted(name: String, value: String) {
        var settings = SpeechSettings()
        #expect(throws: SpeechdError.self) { try settings.apply(Setting(name, value)) }
        do {
            try settings.apply(Setting(name, value))
        } catch {
            #expect(error.message.contains(value))
            #expect(error.kind == .badSetting)
        }
    }
}
