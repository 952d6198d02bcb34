import Foundation
import Testing
import WarbleEngine
@testable import WarbleModels

@Suite(.serialized) struct KokoroModelTests {
    @Test func speaksWithEachVoice() async throws {
        let kokoro = try InstalledVoices.sharedKokoro.get()
        #expect(kokoro.sampleRate == 24000)
        #expect(Set(kokoro.voices.map(\.id)) == ["kokoro-jf_alpha", "kokoro-jf_gongitsune", "kokoro-jf_nezumi",
                                                 "kokoro-jf_tebukuro", "kokoro-jm_kumo"])
        #expect(kokoro.defaultVoice == "kokoro-jm_kumo")
        let synthesizer = StreamingSynthesizer(renderer: kokoro)
        var outputs: [[Float]] = []
        for voice in ["kokoro-jm_kumo", "kokoro-jf_alpha"] {
            let audio = try await collect(synthesizer.synthesize(SynthesisRequest(text: "Good morning, everyone.", voice: voice)))
                .flatMap(\.samples)
            #expect(Double(audio.count) / 24000 > 0.6)
            #expect(rms(audio) > 0.02)
            outputs.append(audio)
        }
        #expect(outputs[0] != outputs[1], "two voices sound different")
        // Deterministic (no noise inputs).
        let again = try await collect(synthesizer.synthesize(SynthesisRequest(text: "Good morning, everyone.",
                                                                              voice: "kokoro-jm_kumo"))).flatMap(\.samples)
        #expect(again == outputs[0])
    }

    @Test func misakiSymbolsFromEspeakIPA() {
        #expect(KokoroSymbols.misaki(fromIPA: "həlˈoʊ wˈɜːld") == "həlˈO wˈɜːld")
        #expect(KokoroSymbols.misaki(fromIPA: "dʒˈeɪmz tʃˈaɪld") == "ʤˈAmz ʧˈIld")
        #expect(KokoroSymbols.misaki(fromIPA: "bˈɔɪ hˈaʊs") == "bˈY hˈWs")
    }

    @Test func overlongUtteranceIsSplitAtWords() async throws {
        let kokoro = try InstalledVoices.sharedKokoro.get()
        let long = Array(repeating: "ɐ lˈɔŋ sˈɛntəns", count: 60).joined(separator: " ")
        let parts = kokoro.split(KokoroSymbols.misaki(fromIPA: long))
        #expect(parts.count >= 2)
        #expect(parts.allSatisfy { !$0.hasPrefix(" ") && !$0.hasSuffix(" ") })
    }
}
