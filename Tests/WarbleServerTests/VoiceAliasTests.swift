import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
@testable import WarbleServer
import WarbleSpeech

/// OpenAI's voice names reach installed voices: the built-in table falls back to the default voice,
/// `--voice-alias` overrides it, an installed voice of the same id wins, and the voices route shows it.
@Suite struct VoiceAliasTests {
    @Test func openAINamesFallBackToTheDefaultVoice() async throws {
        let backend = FakeSpeechBackend()
        try await withServer(backend) { client in
            for name in ["alloy", "nova", "Echo"] {
                let response = try await client.speech(["model": "tts-1", "input": "Hi.", "voice": name, "response_format": "wav"])
                #expect(response.status == .ok, "\(name)")
                #expect(response.headers[.init("X-Warble-Voice")!] == "test-voice")
            }
        }
        #expect(await backend.probe.requests.map(\.voice) == ["test-voice", "test-voice", "test-voice"])
    }

    @Test func anOverrideComesFirstAndNewNamesCanBeAdded() async throws {
        let aliases = VoiceAliases.openAI.overriding("alloy", with: "other-voice").overriding("narrator", with: "other-voice")
        try await withServer(configuration: .init(voiceAliases: aliases)) { client in
            for name in ["alloy", "narrator"] {
                let response = try await client.speech(["model": "tts-1", "input": "Hi.", "voice": name, "response_format": "wav"])
                #expect(response.status == .ok)
                #expect(response.headers[.init("X-Warble-Voice")!] == "other-voice")
            }
            let voices = try #require(try object(try await client.execute(uri: "/v1/audio/voices", method: .get))["data"] as? [[String: Any]])
            let other = try #require(voices.first { $0["id"] as? String == "other-voice" })
            #expect(other["aliases"] as? [String] == ["alloy", "narrator"])
            let test = try #require(voices.first { $0["id"] as? String == "test-voice" })
            #expect((test["aliases"] as? [String])?.contains("nova") == true)
        }
    }

    @Test func aNamedModelPicksAmongItsOwnVoices() async throws {
        try await withServer { client in
            let response = try await client.speech(["model": "other-model", "input": "Hi.", "voice": "alloy", "response_format": "wav"])
            #expect(response.status == .ok)
            #expect(response.headers[.init("X-Warble-Voice")!] == "other-voice")
        }
    }

    @Test func unknownNamesAreStill404() async throws {
        try await withServer { client in
            let response = try await client.speech(["model": "tts-1", "input": "Hi.", "voice": "nobody"])
            #expect(response.status == .notFound)
        }
    }

    @Test func overridesParseFromTheCommandLineForm() {
        #expect(VoiceAliases.parseOverride("alloy=kokoro-jm_kumo")! == ("alloy", "kokoro-jm_kumo"))
        #expect(VoiceAliases.parseOverride(" a = b ")! == ("a", "b"))
        #expect(VoiceAliases.parseOverride("alloy") == nil)
        #expect(VoiceAliases.parseOverride("=x") == nil)
        #expect(VoiceAliases.parseOverride("x=") == nil)
    }

    /// Without the Kokoro voice a name prefers, its gender decides: the default voice when it is of that gender,
    /// else an English voice of that gender, else one whose model speaks English, else the default.
    @Test func aNameWithoutItsVoiceGetsOneOfItsGender() {
        func voice(_ id: String, _ gender: String?, _ language: String = "en-US", model: String = "m") -> VoiceDescription {
            VoiceDescription(id: id, displayName: id, language: language, model: model, sampleRate: 22050, gender: gender)
        }
        let joe = voice("joe", "male", model: "piper")
        let alpha = voice("kokoro-jf_alpha", "female", model: "kokoro")
        let kumo = voice("kokoro-jm_kumo", "male", model: "kokoro")
        let aiko = voice("aiko", "female", "ja-JP", model: "multi")
        let aliases = VoiceAliases.openAI
        #expect(aliases.resolve("nova", installed: [joe, alpha, kumo], defaultVoice: "joe") == "kokoro-jf_alpha")
        #expect(aliases.resolve("onyx", installed: [joe, alpha, kumo], defaultVoice: "joe") == "joe")
        #expect(aliases.resolve("onyx", installed: [alpha, kumo], defaultVoice: "kokoro-jf_alpha") == "kokoro-jm_kumo")
        #expect(aliases.resolve("Shimmer", installed: [joe, aiko], defaultVoice: "joe", speaksEnglish: { $0.model == "multi" }) == "aiko")
        #expect(aliases.resolve("shimmer", installed: [joe, aiko], defaultVoice: "joe") == "joe")
        #expect(aliases.resolve("nobody", installed: [joe], defaultVoice: "joe") == nil)
        #expect(Set(VoiceAliases.genders.keys) == Set(VoiceAliases.openAI.table.keys))
    }
}
