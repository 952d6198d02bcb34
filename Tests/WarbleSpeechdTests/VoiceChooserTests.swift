import Testing
import WarbleSpeech
import WarbleSpeechd

@Suite struct VoiceChooserTests {
    static let joe = VoiceDescription(id: "en_US-joe-medium", displayName: "Joe", language: "en-US", model: "piper", sampleRate: 22050, gender: "male")
    static let alpha = VoiceDescription(id: "kokoro-af_alpha", displayName: "Alpha", language: "en-US", model: "kokoro", sampleRate: 24000, gender: "female")
    static let kumo = VoiceDescription(id: "kokoro-jm_kumo", displayName: "Kumo", language: "ja", model: "kokoro", sampleRate: 24000, gender: "male")
    let chooser = VoiceChooser(voices: [alpha, kumo, joe], defaultVoice: joe)

    func choose(_ lines: [(String, String)]) throws -> VoiceChooser.Choice {
        var settings = SpeechSettings()
        for (name, value) in lines { try settings.apply(Setting(name, value)) }
        return chooser.choose(for: settings)
    }

    @Test func namedVoiceWins() throws {
        #expect(try choose([("synthesis_voice", "kokoro-jm_kumo"), ("language", "en")]).voice == Self.kumo)
        #expect(try choose([("synthesis_voice", "Alpha")]).voice == Self.alpha)
    }

    @Test func unknownVoiceFallsBackWithAWarning() throws {
        let choice = try choose([("synthesis_voice", "nobody")])
        #expect(choice.voice == Self.joe)
        #expect(choice.warning == "unknown voice 'nobody'; falling back to 'en_US-joe-medium'")
    }

    @Test func languageAndVoiceType() throws {
        #expect(try choose([("language", "ja")]).voice == Self.kumo)
        #expect(try choose([("language", "en")]).voice == Self.joe)
        #expect(try choose([("language", "en-us"), ("voice", "female2")]).voice == Self.alpha)
        #expect(try choose([("language", "fr")]).voice == Self.joe)
        #expect(try choose([]).warning == nil)
    }

    @Test func listing() {
        #expect(chooser.listing() == ["kokoro-af_alpha\ten-US\tfemale", "kokoro-jm_kumo\tja\tmale", "en_US-joe-medium\ten-US\tmale"])
        #expect(chooser.listing(language: "en") == ["kokoro-af_alpha\ten-US\tfemale", "en_US-joe-medium\ten-US\tmale"])
        #expect(chooser.listing(language: "en", variant: "male") == ["en_US-joe-medium\ten-US\tmale"])
    }
}
