import WarbleSpeech
import Foundation
import Testing
import WarbleEngine
import WarbleModels
import WarbleText
import WarbleTestSupport

@Suite(.needs(model: "piper-en_US-joe-medium"), .needsRuntime, .serialized) struct BadInputTests {
    private var synthesizer: StreamingSynthesizer<PiperVoice> {
        get throws { StreamingSynthesizer(renderer: try InstalledVoices.sharedPiper.get()) }
    }

    @Test(arguments: ["", "   \n\t ", "...!?", "<speak></speak>"])
    func nothingToSay(text: String) async throws {
        let error = await #expect(throws: ModelError.self) {
            _ = try await collect(try synthesizer.synthesize(SynthesisRequest(text: text, isSSML: text.hasPrefix("<"))))
        }
        #expect(error?.kind == .badInput)
        #expect(error?.message.contains("nothing to say") == true)
    }

    @Test func unknownVoiceListsTheVoices() async throws {
        let error = await #expect(throws: ModelError.self) {
            _ = try await collect(try synthesizer.synthesize(SynthesisRequest(text: "Hi.", voice: "nobody")))
        }
        #expect(error?.kind == .unknownVoice)
        #expect(error?.message.contains("en_US-joe-medium") == true)
    }

    @Test func malformedSSMLSaysLineAndColumn() async throws {
        let error = await #expect(throws: TextError.self) {
            _ = try await collect(try synthesizer.synthesize(SynthesisRequest(text: "<speak>\n  <break time='1s'>\n</speak>", isSSML: true)))
        }
        #expect(error.map { "\($0)" }?.contains("(line 3, column 1)") == true, "\(String(describing: error))")
    }

    @Test func badRateAndVolume() async throws {
        for request in [SynthesisRequest(text: "Hi.", rate: 0), SynthesisRequest(text: "Hi.", volume: -1)] {
            let error = await #expect(throws: ModelError.self) { _ = try await collect(try synthesizer.synthesize(request)) }
            #expect(error?.kind == .badInput)
        }
    }

    @Test func missingModelFileNamesTheFileAndTheFix() throws {
        let installed = try InstalledVoices.model("piper-en_US-joe-medium")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("piper-missing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: installed.url(for: "config.json"), to: copy.appendingPathComponent("config.json"))
        let error = #expect(throws: (any Error).self) {
            _ = try PiperVoice(directory: copy, manifest: installed.manifest, phonemizer: PassthroughPhonemizer())
        }
        // The voice is split for streaming: its first part is the first file it needs.
        let encoder = try #require(installed.manifest.config?["split"]?["encoder"]?.string)
        #expect("\(error!)".contains("model file not found: " + copy.appendingPathComponent(encoder).path))
    }

    @Test func corruptModelFileIsAClearError() throws {
        let installed = try InstalledVoices.model("piper-en_US-joe-medium")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("piper-corrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: installed.url(for: "config.json"), to: copy.appendingPathComponent("config.json"))
        for file in installed.manifest.files where file.path != "config.json" {
            try Data(repeating: 7, count: 1000).write(to: copy.appendingPathComponent(file.path))
        }
        let error = #expect(throws: (any Error).self) {
            _ = try PiperVoice(directory: copy, manifest: installed.manifest, phonemizer: PassthroughPhonemizer())
        }
        // The first file it reads is the encoder, saved in ONNX Runtime's own format (.ort).
        #expect("\(error!)".contains("is not a valid ONNX Runtime format (.ort) model"))
    }

    /// 10 MB of text streams: planning is lazy (a block at a time). How soon the first audio comes is
    /// for benchmarks (it took 40 s when all of it was chunked first; well under a second now), and
    /// peak memory is checked per process in scripts/test-cli.sh, since tests in this process run side
    /// by side.
    @Test func tenMegabytesOfTextStreams() async throws {
        let sentence = "A long text keeps streaming while memory stays flat. "
        let text = String(repeating: sentence, count: 10_000_000 / sentence.utf8.count)
        var chunks = 0
        var audio = 0
        for try await chunk in try synthesizer.synthesize(SynthesisRequest(text: text)) {
            audio += chunk.samples.count
            chunks += 1
            if chunks == 6 { break }
        }
        #expect(chunks == 6)
        #expect(audio > 0)
    }
}

struct PassthroughPhonemizer: Phonemizer {
    func phonemize(_ text: String, language: String) throws -> String { text }
}
