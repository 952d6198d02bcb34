import Foundation
import Testing
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import WarbleText
@testable import WarbleModels
import WarbleTestSupport

/// NeuTTS through the engine, with espeak-ng: the phonemes are the reference's (the authors call
/// espeak-ng through `phonemizer`; four languages), long text is planned into the reference's parts,
/// and a voice added from reference codes speaks the reference's audio (tools/neutts's synthetic
/// graphs installed as neutts-nano, with their toy NeuCodec as neucodec; greedy decoding).
@Suite struct NeuTTSSpeechTests {
    static var fixtures: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/generated/neutts") }

    struct Phonemes: Decodable {
        struct Item: Decodable { let language: String; let text: String; let phonemes: String }
        let cases: [Item]
    }

    static func json<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: try Data(contentsOf: fixtures.appendingPathComponent("golden/\(name)")))
    }

    @Test(.needs(fixtures: "neutts")) func phonemesAreTheReferences() throws {
        let espeak = EspeakPhonemizer()
        for item in try Self.json("phonemes.json", as: Phonemes.self).cases {
            let ours = try NeuTTSPhonemes.of(item.text, language: item.language, phonemizer: espeak)
            #expect(ours == item.phonemes, "\(item.language): \(item.text)")
        }
    }

    @Test(.needs(fixtures: "neutts")) func longTextIsPlannedAsTheReferencePlansIt() throws {
        struct Long: Decodable {
            struct Plan: Decodable { let chunks: [String] }
            struct Unchunked: Decodable { let text: String }
            let plan: Plan
            let unchunked: Unchunked
        }
        let long = try Self.json("long.json", as: Long.self)
        let vocabulary = try NeuTTSVocabulary(tokenizer: try BPETokenizer(tokenizerJSON: Self.fixtures.appendingPathComponent("repo/tokenizer.json")))
        let espeak = EspeakPhonemizer()
        func phonemes(_ text: String) throws -> String { try NeuTTSPhonemes.of(text, language: "en-us", phonemizer: espeak) }
        let transcript = try String(contentsOf: Self.fixtures.appendingPathComponent("voice/ref.txt"), encoding: .utf8)
        let codes = try NeuTTSReferenceCodes.read(try Data(contentsOf: Self.fixtures.appendingPathComponent("voice/ref_codes.i32")), name: "ref")
        let plan = try NeuTTSPlan(vocabulary: vocabulary, referencePhonemes: try phonemes(transcript), referenceCodes: codes, context: 2048,
                                  phonemes: phonemes)
        let parts = try plan.parts(long.unchunked.text)
        #expect(parts.count == 2 && parts.map(\.text) == long.plan.chunks)
    }

    /// Added from its codes, the voice speaks the reference's tokens: greedy, the stream of the
    /// authors' streaming path (chunks of 25) within 1e-5 away from the engine's 5-ms edge fades; a seed
    /// samples; a voice without a transcript is refused.
    @Test(.needs(fixtures: "neutts"), .needs(model: "silero-vad"), .needs(model: "speaker-dvector"), .needsRuntime)
    func aVoiceFromCodesSpeaksTheReferencesAudio() async throws {
        let engine = try InstalledVoices.engine(withFixture: "neutts", as: "neutts-nano", family: "neutts", languages: ["en"],
                                                variant: "fp32", marker: "onnx/model.onnx", config: ["greedy": .bool(true)])
        let codec = engine.store.modelsDirectory.appendingPathComponent("neucodec")
        try FileManager.default.createDirectory(at: codec, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: codec.appendingPathComponent("model.onnx"),
                                                   withDestinationURL: Self.fixtures.appendingPathComponent("codec/model.onnx"))
        try JSONEncoder().encode(ModelManifest(id: "neucodec", family: "neucodec", licence: "synthetic (tools/neutts)", source: "fixture",
                                               sampleRate: 24_000, languages: [], voices: [], files: []))
            .write(to: codec.appendingPathComponent("manifest.json"))

        let transcript = try String(contentsOf: Self.fixtures.appendingPathComponent("voice/ref.txt"), encoding: .utf8)
        let npy = try Data(contentsOf: Self.fixtures.appendingPathComponent("voice/ref_codes.npy"))
        await #expect { try await engine.addReferenceCodesVoice(name: "neu", codes: npy, codesName: "ref_codes.npy", transcript: " ") } throws: {
            "\($0)".contains("needs the transcript")
        }
        let profile = try await engine.addReferenceCodesVoice(name: "neu", codes: npy, codesName: "ref_codes.npy", transcript: transcript)
        #expect(profile.model == "neutts-nano" && profile.family == "neutts")
        #expect(await engine.voices.contains { $0.id == "neu" && $0.model == "neutts-nano" })

        struct LM: Decodable {
            struct Stream: Decodable { let file: String }
            struct Case: Decodable { let name: String; let text: String; let stream: [String: Stream]? }
            let cases: [Case]
        }
        let golden = try #require(try Self.json("lm.json", as: LM.self).cases.first { $0.name == "short_greedy" })
        // The engine streams with the configuration's default chunk (50 codes).
        let file = try #require(golden.stream?["codec/50"]?.file)
        let want = try Data(contentsOf: Self.fixtures.appendingPathComponent("golden/\(file)")).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let chunks = try await collect(engine.synthesize(SynthesisRequest(text: golden.text, voice: "neu")))
        let samples = chunks.flatMap(\.samples)
        #expect(chunks.first?.sampleRate == 24_000 && chunks.count > 1)
        // The engine fades each utterance's first and last 5 ms in and out (120 samples at 24 kHz).
        let fade = 120
        #expect(samples.count == want.count && samples.count > 2 * fade)
        #expect(zip(samples, want).enumerated().allSatisfy { i, pair in
            (fade..<(want.count - fade)).contains(i) ? abs(pair.0 - pair.1) <= 1e-5 : abs(pair.0) <= abs(pair.1) + 1e-5
        })

        let seven = try await collect(engine.synthesize(SynthesisRequest(text: golden.text, voice: "neu", controls: .init(seed: 7)))).flatMap(\.samples)
        #expect(seven != samples && seven.count % 480 == 0)
        await #expect { try await collect(engine.synthesize(SynthesisRequest(text: "Hi.", voice: "neu", controls: .init(instruction: "Loud.")))) }
            throws: { "\($0)".contains("takes only a seed") }
    }
}
