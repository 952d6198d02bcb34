import Foundation
import Testing
import WarbleEngine
@testable import WarbleModels
import WarblePhonemes
import WarbleSpeech
import WarbleTestSupport

/// What `piper` users expect: a voice file given by path (NAME.onnx with NAME.onnx.json), a speaker of a
/// multi-speaker voice by name or number, and the three scales. The two-speaker voice is the installed
/// voice with a `sid` input that scales its audio by 1 + sid / 2 (tools/voices/make_fixtures.py), and
/// its reference is piper-tts's own multi-speaker path for speaker bob.
@Suite(.needs(fixtures: "voices"), .needsRuntime, .serialized) struct PiperControlsTests {
    struct Reference: Decodable { let text: String; let speaker: String; let samples: String }

    static var voiceFile: URL { PiperReferenceTests.directory.appendingPathComponent("two-speakers/two-speakers.onnx") }

    static func reference() throws -> Reference {
        let url = PiperReferenceTests.directory.appendingPathComponent("two-speakers/two-speakers.json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("\(url.path) is missing: run scripts/test.sh (or tools/voices/make_fixtures.py)")
            throw CocoaError(.fileNoSuchFile)
        }
        return try JSONDecoder().decode(Reference.self, from: data)
    }

    static let quiet = VoiceControls(noiseScale: 0, noiseW: 0)

    @Test func aSpeakerByNameMatchesPiperTTS() throws {
        let reference = try Self.reference()
        let files = try #require(try PiperFamily().adopt(file: Self.voiceFile))
        let voice = try PiperVoice(directory: files.directory, manifest: files.manifest, phonemizer: EspeakPhonemizer())
        #expect(voice.speakers == ["alice", "bob"])
        let golden = try PiperReferenceTests.golden()
        let phonemes = try #require(golden.cases.first { $0.text == reference.text }).phonemes
        var controls = Self.quiet
        controls.speaker = "bob"
        let bob = try voice.synthesize(phonemes: phonemes, controls: controls)
        let expected = try PiperReferenceTests.samples("two-speakers/" + reference.samples)
        #expect(bob.count == expected.count)
        let (maxAbs, snr) = PiperReferenceTests.compare(bob, expected)
        // The same graph and runtime on both sides: measured identical.
        #expect(maxAbs < 1e-5, "max abs \(maxAbs), SNR \(snr) dB")
        controls.speaker = "0"
        let alice = try voice.synthesize(phonemes: phonemes, controls: controls)
        #expect(zip(alice, bob).allSatisfy { abs($0 * 1.5 - $1) < 1e-5 }, "speaker 0 is alice, at 2/3 of bob's level")
    }

    @Test func unknownSpeakersAndScalesAreClearErrors() throws {
        let files = try #require(try PiperFamily().adopt(file: Self.voiceFile))
        let voice = try PiperVoice(directory: files.directory, manifest: files.manifest, phonemizer: EspeakPhonemizer())
        #expect(throws: ModelError.self) { try voice.validate(VoiceControls(speaker: "carol")) }
        #expect(throws: ModelError.self) { try voice.validate(VoiceControls(speaker: "2")) }
        #expect(throws: ModelError.self) { try VoiceControls(noiseScale: .nan).validate() }
        #expect(throws: ModelError.self) { try VoiceControls(lengthScale: 0).validate() }
        #expect(throws: ModelError.self) { try VoiceControls(noiseW: -1).validate() }
        // CosyVoice 3's settings are refused by name: Piper draws its noise inside the model.
        for controls in [VoiceControls(seed: 7), VoiceControls(instruction: "Whisper."), VoiceControls(crossLingual: true)] {
            #expect { try voice.validate(controls) } throws: { ($0 as? ModelError)?.message.contains("no seed, instruction or cross-lingual") == true }
        }
    }

    @Test func aVoiceFileByPathSpeaksThroughTheEngine() async throws {
        let engine = Engine(phonemizer: EspeakPhonemizer(), configuration: .init(idleUnloadAfter: nil, cacheBytes: 0, threads: 2))
        let path = Self.voiceFile.path
        let voice = try await engine.voice(path)
        #expect(voice.id == path && voice.model == "file:" + path && voice.sampleRate == 22050)
        #expect(await engine.voices.contains { $0.id == path })
        func level(_ speaker: String) async throws -> Double {
            var controls = Self.quiet
            controls.speaker = speaker
            let samples = try await collect(engine.synthesize(SynthesisRequest(text: "Two speakers.", voice: path, controls: controls)))
                .flatMap(\.samples)
            return samples.reduce(0) { $0 + Double($1 * $1) }
        }
        let ratio = try await level("bob") / level("alice")
        #expect(abs(ratio - 2.25) < 0.01, "bob's energy is 1.5² alice's, got \(ratio)")
        // The length scale is Piper's own control, passed through as piper does: its per-phoneme rounding
        // up to whole frames makes twice the scale about 1.7 times the audio (measured 1.72).
        func seconds(_ lengthScale: Double?) async throws -> Int {
            var controls = Self.quiet
            controls.lengthScale = lengthScale
            return try await collect(engine.synthesize(SynthesisRequest(text: "Two speakers.", voice: path, controls: controls)))
                .reduce(0) { $0 + $1.samples.count }
        }
        let (normal, slow) = (try await seconds(nil), try await seconds(2))
        #expect((1.5...2.1).contains(Double(slow) / Double(normal)), "length scale 2: \(slow) samples against \(normal)")
        await #expect(throws: ModelError.self) { try await engine.voice("/nonexistent/voice.onnx") }
        await #expect(throws: ModelError.self) {
            try await collect(engine.synthesize(SynthesisRequest(text: "x", voice: "kokoro-jm_kumo", controls: Self.quiet)))
        }
    }
}
