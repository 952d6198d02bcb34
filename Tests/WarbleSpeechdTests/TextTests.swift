import Testing
@testable import WarbleSpeechd

@Suite struct SpokenTextTests {
    @Test func characters() {
        #expect(SpokenText.character("a") == "A")
        #expect(SpokenText.character("A", capitals: .spell) == "capital A")
        #expect(SpokenText.character("a", capitals: .spell) == "A")
        #expect(SpokenText.character(",") == "comma")
        #expect(SpokenText.character(" ") == "space")
        #expect(SpokenText.character("7") == "seven")
        #expect(SpokenText.character("é") == "É")
        #expect(SpokenText.character("€") == "€")
    }

    @Test func keys() {
        #expect(SpokenText.key("a") == "A")
        #expect(SpokenText.key("shift_a") == "shift A")
        #expect(SpokenText.key("control_alt_delete") == "control alt delete")
        #expect(SpokenText.key("kp-enter") == "keypad enter")
        #expect(SpokenText.key("kp-5") == "keypad five")
        #expect(SpokenText.key("double-quote") == "double quote")
        #expect(SpokenText.key("space") == "space")
        #expect(SpokenText.key("f12") == "f12")
        #expect(SpokenText.key("underscore") == "underscore")
    }

    @Test func spelling() {
        #expect(SpokenText.spelled("Hi!", capitals: .spell) == "capital H, I, exclamation mark")
    }

    @Test func ssmlTextMapKeepsTagsAndEntities() {
        let ssml = #"<speak>ab<mark name="__spd_1"/> c &amp; d</speak>"#
        let mapped = SSMLTextMap.map(ssml) { SpokenText.spelled($0) }
        #expect(mapped == #"<speak>A, B<mark name="__spd_1"/>C, and, D</speak>"#)
        #expect(SSMLTextMap.map("<a>x &lt; y</a>") { $0 } == "<a>x &lt; y</a>")
    }
}

@Suite struct ModuleConfigurationTests {
    @Test func readsDotconfLines() {
        let configuration = ModuleConfiguration(text: """
            # comment
            WarbleDefaultVoice "kokoro-jm_kumo"
            WarbleHome /opt/warble
            WarbleCharacterCache 16
            WarblePrewarm 0
            WarbleLexicon "/home/me/names.pls"
            WarbleBogus 1
            WarbleCharacterCache many
            """)
        #expect(configuration.defaultVoice == "kokoro-jm_kumo")
        #expect(configuration.warbleHome == "/opt/warble")
        #expect(configuration.characterCacheEntries == 16)
        #expect(!configuration.prewarm)
        #expect(configuration.lexicon == "/home/me/names.pls")
        #expect(configuration.warnings.count == 2)
        #expect(configuration.warnings[0].contains("WarbleBogus"))
    }

    @Test func missingFileGivesDefaultsAndAWarning() {
        let configuration = ModuleConfiguration.load(path: "/nonexistent/warble.conf")
        #expect(configuration.prewarm)
        #expect(configuration.warnings.count == 1)
        #expect(ModuleConfiguration.load(path: nil) == ModuleConfiguration())
    }
}
