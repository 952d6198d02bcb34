import WarbleSpeech
import Foundation
import ONNXRuntime
import Testing
import WarbleAudio
import WarbleEngine
import WarblePhonemes
@testable import WarbleModels
import WarbleTestSupport

@Suite(.serialized) struct KokoroModelTests {
    @Test(.needs(model: "kokoro-v1.0-int8"), .needsRuntime) func speaksWithEachVoice() async throws {
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

    /// The installed graph runs the decoder's Snake activations as Warble's fused operator; it must
    /// sound like the unfused reference graph (model.onnx, what kokoro-onnx runs). Samples cannot be
    /// compared: this int8 model re-quantises every activation, so float-level differences flip
    /// roundings and the waveforms part (a 1-ulp change of the Snake scales alone gives 21-24 dB SNR,
    /// tools/models/README.md). Log spectra are compared instead: mean absolute difference in dB
    /// over the bins within 60 dB of the peak, at most 4 dB (measured here 1.2-1.4 dB; in Python,
    /// without trimming, fused 1.2-2.3 dB and the 1-ulp change 2.1-2.6 dB). The control, another
    /// voice on the same symbols, must be at least 8 dB away (measured 12-14 dB).
    @Test(.needs(model: "kokoro-v1.0-int8"), .needsRuntime) func fusedSnakeSoundsLikeTheReferenceGraph() throws {
        let installed = try InstalledVoices.model("kokoro-v1.0-int8")
        let fused = try InstalledVoices.sharedKokoro.get()
        guard case .object(var config)? = installed.manifest.config, let reference = config["referenceModel"] else {
            Issue.record("the Kokoro manifest names no referenceModel: reinstall with scripts/setup.sh")
            return
        }
        #expect(config["warbleOperators"] == .bool(true))
        config["model"] = reference
        config["warbleOperators"] = .bool(false)
        var manifest = installed.manifest
        manifest.config = .object(config)
        let unfused = try KokoroModel(directory: installed.directory, manifest: manifest, phonemizer: EspeakPhonemizer(),
                                      sessionOptions: SessionOptions(intraOpThreads: 2))
        for ipa in ["ɡʊd mˈɔːɹnɪŋ, ˈɛvɹɪwˌʌn.", "ðə kwˈɪk bɹˈaʊn fˈɑːks dʒˈʌmps ˌoʊvɚ ðə lˈeɪzi dˈɔɡ."] {
            let symbols = KokoroSymbols.misaki(fromIPA: ipa)
            let ours = try fused.synthesize(symbols: symbols, voice: "kokoro-jm_kumo")
            let theirs = try unfused.synthesize(symbols: symbols, voice: "kokoro-jm_kumo")
            let other = try unfused.synthesize(symbols: symbols, voice: "kokoro-jf_alpha")
            let distance = Self.spectralDistance(ours, theirs), control = Self.spectralDistance(theirs, other)
            print("Kokoro fused vs reference graph: \(String(format: "%.2f", distance)) dB (another voice \(String(format: "%.1f", control)) dB)")
            #expect(distance <= 4, "fused graph \(distance) dB from the reference graph")
            #expect(control >= 8, "control: another voice only \(control) dB away")
        }
    }

    /// Mean absolute difference of two signals' log power spectra (1024-point frames, hop 256), over
    /// the bins of `a` within 60 dB of its peak, on their common length; the smallest over shifts of
    /// `b` by up to four hops either way (the silence trimming of each run may start them a frame apart).
    static func spectralDistance(_ a: [Float], _ b: [Float]) -> Double {
        (-4...4).map { shift in
            let hop = 256 * abs(shift)
            let x = shift >= 0 ? a : Array(a.dropFirst(hop)), y = shift >= 0 ? Array(b.dropFirst(hop)) : b
            return alignedSpectralDistance(x, y)
        }.min() ?? .infinity
    }

    static func alignedSpectralDistance(_ a: [Float], _ b: [Float]) -> Double {
        let length = min(a.count, b.count)
        guard length >= 1024 else { return .infinity }
        let stft = STFT(fftLength: 1024, hopLength: 256)
        let pa = stft.powerSpectrogram(Array(a.prefix(length))), pb = stft.powerSpectrogram(Array(b.prefix(length)))
        let da = pa.values.map { 10 * log10(Double($0) + 1e-10) }, db = pb.values.map { 10 * log10(Double($0) + 1e-10) }
        let floor = (da.max() ?? 0) - 60
        var sum = 0.0, count = 0
        for (x, y) in zip(da, db) where x > floor {
            sum += abs(x - y)
            count += 1
        }
        return count == 0 ? .infinity : sum / Double(count)
    }

    @Test func misakiSymbolsFromEspeakIPA() {
        #expect(KokoroSymbols.misaki(fromIPA: "həlˈoʊ wˈɜːld") == "həlˈO wˈɜːld")
        #expect(KokoroSymbols.misaki(fromIPA: "dʒˈeɪmz tʃˈaɪld") == "ʤˈAmz ʧˈIld")
        #expect(KokoroSymbols.misaki(fromIPA: "bˈɔɪ hˈaʊs") == "bˈY hˈWs")
    }

    @Test(.needs(model: "kokoro-v1.0-int8"), .needsRuntime) func overlongUtteranceIsSplitAtWords() async throws {
        let kokoro = try InstalledVoices.sharedKokoro.get()
        let long = Array(repeating: "ɐ lˈɔŋ sˈɛntəns", count: 60).joined(separator: " ")
        let parts = kokoro.split(KokoroSymbols.misaki(fromIPA: long))
        #expect(parts.count >= 2)
        #expect(parts.allSatisfy { !$0.hasPrefix(" ") && !$0.hasSuffix(" ") })
    }
}
