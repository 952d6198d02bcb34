import Foundation
import Testing
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// A request's `language`: Kokoro (trained on eight languages) speaks Portuguese text through
/// espeak-ng's Brazilian Portuguese phonemes with any of its voices; Piper speaks its own language
/// only and refuses others; the engine finds a voice for a language.
@Suite(.serialized) struct SpeakingLanguageTests {
    @Test(.needs(model: "kokoro-v1.0-int8"), .needsRuntime) func kokoroSpeaksTheRequestsLanguageWithItsPhonemes() async throws {
        let kokoro = try InstalledVoices.sharedKokoro.get()
        #expect(kokoro.speaks("pt-BR") && kokoro.speaks("en-GB") && kokoro.speaks("ja") && !kokoro.speaks("de"))
        let portuguese = Utterance(text: "Bom dia a todos.", language: "pt-BR", sourceRange: 0..<0, words: [], endsSentence: true)
        #expect(kokoro.espeakVoice(for: portuguese, voice: "jm_kumo") == "pt-br")
        #expect(kokoro.espeakVoice(for: Utterance(text: "Hello.", language: "en-us", sourceRange: 0..<0, words: [], endsSentence: true), voice: "jm_kumo") == "en-us")
        // The Portuguese phonemes are not the English ones for the same letters.
        let phonemizer = EspeakPhonemizer()
        #expect(try phonemizer.phonemize("Bom dia a todos.", language: "pt-br")
            != phonemizer.phonemize("Bom dia a todos.", language: "en-us"))

        let synthesizer = StreamingSynthesizer(renderer: kokoro)
        let text = "Bom dia a todos."
        let inPortuguese = try await collect(synthesizer.synthesize(SynthesisRequest(text: text, language: "pt-BR"))).flatMap(\.samples)
        let inEnglish = try await collect(synthesizer.synthesize(SynthesisRequest(text: text))).flatMap(\.samples)
        #expect(Double(inPortuguese.count) / 24000 > 0.5 && rms(inPortuguese) > 0.02)
        #expect(inPortuguese != inEnglish)
        await #expect { _ = try await collect(synthesizer.synthesize(SynthesisRequest(text: text, language: "de"))) } throws: {
            "\($0)".contains("does not speak de")
        }
        await #expect { _ = try await collect(synthesizer.synthesize(SynthesisRequest(text: text, language: "pt BR!"))) } throws: {
            "\($0)".contains("not a language code")
        }
    }

    @Test(.needs(model: "piper-en_US-joe-medium"), .needsRuntime) func piperRefusesAnotherLanguage() async throws {
        let synthesizer = StreamingSynthesizer(renderer: try InstalledVoices.piper())
        await #expect { _ = try await collect(synthesizer.synthesize(SynthesisRequest(text: "Bom dia.", language: "pt-BR"))) } throws: {
            "\($0)".contains("does not speak pt-BR")
        }
        let english = try await collect(synthesizer.synthesize(SynthesisRequest(text: "Good morning.", language: "en-US")))
        #expect(!english.isEmpty)
    }

    @Test(.needs(model: "piper-en_US-joe-medium"), .needs(model: "kokoro-v1.0-int8"), .needsRuntime)
    func theEngineFindsAVoiceForALanguage() async throws {
        let engine = try InstalledVoices.isolatedEngine("languages", models: ["piper-en_US-joe-medium", "kokoro-v1.0-int8"], threads: 2)
        let english = try await engine.voice(speaking: "en")
        #expect(english.native && english.voice.id == "en_US-joe-medium")
        let portuguese = try await engine.voice(speaking: "pt-BR")
        #expect(!portuguese.native && portuguese.voice.id == "kokoro-jm_kumo")
        let chosen = try await engine.voice(speaking: "pt-BR", preferring: "kokoro-jf_alpha")
        #expect(!chosen.native && chosen.voice.id == "kokoro-jf_alpha")
        await #expect { _ = try await engine.voice(speaking: "pt-BR", preferring: "en_US-joe-medium") } throws: {
            "\($0)".contains("cannot speak pt-BR")
        }
        await #expect { _ = try await engine.voice(speaking: "de") } throws: { "\($0)".contains("no installed voice speaks de") }
    }
}
