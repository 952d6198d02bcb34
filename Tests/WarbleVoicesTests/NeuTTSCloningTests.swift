import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import ONNXRuntime
@testable import WarbleModels
import WarbleTestSupport

/// NeuTTS voices from a plain clip (issue #39): NeuCodec's encoder exported by tools/neutts/export_encoder.py
/// from a small randomly initialised NeuCodec (tools/neutts/encoder_fixtures.py) gives, in Warble, exactly
/// the codes neucodec's own PyTorch encode_code gives on three clips; installed beside the synthetic NeuTTS
/// graphs, it lets `addVoice` clone from a clip, and the voice speaks.
@Suite(.needs(fixtures: "neutts"), .needsRuntime, .serialized)
struct NeuTTSCloningTests {
    static var encoderDirectory: URL { NeuTTSSpeechTests.fixtures.appendingPathComponent("encoder") }

    struct Codes: Decodable {
        struct Case: Decodable { let clip: String; let samples: Int; let codes: [Int] }
        let cases: [Case]
    }

    @Test func theExportedEncoderGivesPyTorchsCodes() throws {
        let encoder = try NeuCodecEncoder(url: Self.encoderDirectory.appendingPathComponent("model.onnx"), options: .init())
        let golden = try JSONDecoder().decode(Codes.self, from: Data(contentsOf: Self.encoderDirectory.appendingPathComponent("codes.json")))
        #expect(golden.cases.count == 3)
        for item in golden.cases {
            let samples = try Data(contentsOf: Self.encoderDirectory.appendingPathComponent(item.clip)).withUnsafeBytes {
                Array($0.bindMemory(to: Float.self))
            }
            #expect(samples.count == item.samples)
            let codes = try encoder.encode(samples, options: nil)
            // Exact: the codes are FSQ's rounded levels; a difference would mean another computation.
            #expect(codes == item.codes, "\(item.clip): \(zip(codes, item.codes).filter { $0 != $1 }.count) of \(item.codes.count) differ")
            #expect(codes.count == (samples.count + 1 + 319) / 320 - 1)  // ⌈(N + 1) / 320⌉ − 1
        }
        #expect { try encoder.encode([Float](repeating: 0, count: 100), options: nil) } throws: { "\($0)".contains("at least 400") }
        #expect { try encoder.encode([0, .nan] + [Float](repeating: 0, count: 1000), options: nil) } throws: { "\($0)".contains("not numbers") }
    }

    @Test(.needs(model: "silero-vad"), .needs(model: "speaker-dvector"), .needs(model: "piper-en_US-joe-medium"))
    func aVoiceClonedFromAClipSpeaks() async throws {
        let engine = try InstalledVoices.engine(withFixture: "neutts", as: "neutts-nano", family: "neutts", languages: ["en"],
                                                variant: "fp32", marker: "onnx/model.onnx", config: ["greedy": .bool(true)])
        let models = engine.store.modelsDirectory
        // NeuCodec's decoder (the synthetic one) as `neucodec`.
        let codec = models.appendingPathComponent("neucodec")
        try FileManager.default.createDirectory(at: codec, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: codec.appendingPathComponent("model.onnx"),
                                                   withDestinationURL: NeuTTSSpeechTests.fixtures.appendingPathComponent("codec/model.onnx"))
        try JSONEncoder().encode(ModelManifest(id: "neucodec", family: "neucodec", licence: "synthetic (tools/neutts)", source: "fixture",
                                               sampleRate: 24_000, languages: [], voices: [], files: []))
            .write(to: codec.appendingPathComponent("manifest.json"))
        let speech = try await CloneClipTests.speech()
        let clip = try SoundFile.encode(speech, format: .wav16)
        let transcript = "The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore, every single morning."

        // Without the encoder NeuTTS cannot clone from a clip.
        await #expect { try await engine.addVoice(VoiceCloneRequest(name: "neu", clip: clip, clipName: "joe.wav", model: "neutts-nano",
                                                                    transcript: transcript)) } throws: { "\($0)".contains("no installed model that clones") }

        // export_encoder.py's output directory, as it writes it into $WARBLE_HOME/models/neucodec-encoder.
        let encoder = models.appendingPathComponent("neucodec-encoder")
        try FileManager.default.createDirectory(at: encoder, withIntermediateDirectories: true)
        for name in ["model.onnx", "manifest.json"] {
            try FileManager.default.copyItem(at: Self.encoderDirectory.appendingPathComponent(name), to: encoder.appendingPathComponent(name))
        }
        let reloaded = Engine(store: engine.store, phonemizer: EspeakPhonemizer(), configuration: .init(idleUnloadAfter: nil, cacheBytes: 0, threads: 1))
        await #expect { try await reloaded.addVoice(VoiceCloneRequest(name: "neu", clip: clip, clipName: "joe.wav", model: "neutts-nano")) } throws: {
            "\($0)".contains("what the clip says")
        }
        let result = try await reloaded.addVoice(VoiceCloneRequest(name: "neu", clip: clip, clipName: "joe.wav", model: "neutts",
                                                                   transcript: transcript, consent: "a synthetic voice"))
        #expect(result.profile.model == "neutts-nano" && result.profile.family == "neutts" && result.search == nil)
        guard case let .referenceCodes(codes, said) = result.profile.conditioning else {
            Issue.record("a NeuTTS voice holds reference codes, not \(result.profile.conditioning.kind)")
            return
        }
        #expect(said == transcript)
        // 50 codes a second of the speech the clip check kept.
        #expect(abs(Double(codes.count) / 50 - speech.duration) < 1.5, "\(codes.count) codes for \(speech.duration) s")
        #expect(Set(codes).count > 1)

        let chunks = try await collect(reloaded.synthesize(SynthesisRequest(text: "Good morning to you all.", voice: "neu")))
        let samples = chunks.flatMap(\.samples)
        #expect(chunks.first?.sampleRate == 24_000 && samples.count > 0 && samples.count % 480 == 0)
    }
}
