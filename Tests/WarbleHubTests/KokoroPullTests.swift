import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarbleHub
import WarbleModels
import WarblePhonemes
import WarbleTestSupport

/// Kokoro v1.0 pulled from the imitation laid out as onnx-community/Kokoro-82M-v1.0-ONNX (its tensor
/// names, tokenizer.json, raw .bin voices; tools/hub/make_kokoro_repo.py), the file list read over
/// pages of 2 entries: the voice table of a voice named as American English speaks English that
/// Whisper hears.
@Suite(.serialized) struct KokoroPullTests {
    @Test(.needs(fixtures: "hub"), .needs(model: "whisper-tiny.en"), .needsRuntime) func kokoroFromOnnxCommunitySpeaksEnglish() async throws {
        let hub = try HubImitation(["--page-size", "2"])
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let outcome = try await HubClient.with(environment: hub.environment()) { client in
            try await HubPull(client: client, installer: ModelInstaller(store: store), tools: HubImitation.tools)
                .pull(ModelReference(parsing: "kokoro-v1.0"))
        }
        guard case .installed(let model) = outcome else { Issue.record("expected an install, got \(outcome)"); return }
        #expect(model.manifest.id == "kokoro-v1.0" && model.manifest.family == "kokoro")
        #expect(model.verify(checksums: false).isEmpty)
        let voices = Dictionary(uniqueKeysWithValues: model.manifest.voices.map { ($0.id, $0) })
        #expect(voices["kokoro-am_kumo"]?.language == "en-US" && voices["kokoro-am_kumo"]?.gender == "male")
        #expect(voices["kokoro-jf_alpha"]?.language == "ja" && voices["kokoro-jf_alpha"]?.gender == "female")
        #expect(model.manifest.files.contains { $0.path == "onnx/model_quantized.onnx" })
        // Fused on pull into Warble's operators, as the set-up fuses its int8 model.
        let config = try ModelConfigurationReader.decode(KokoroConfiguration.self, from: model.manifest)
        #expect(config.model == "onnx/model_quantized.warble.onnx" && config.warbleOperators)
        #expect(model.manifest.converter == "tools/models/fuse_kokoro.py" && model.manifest.notes == nil)
        #expect(model.manifest.files.contains { $0.path == "onnx/model_quantized.warble.onnx" })
        // The listing came in pages (Link: rel="next" followed to the end).
        let pages = try await hub.log().filter { $0.path.contains("/api/models/onnx-community/Kokoro-82M-v1.0-ONNX/tree/") }
        #expect(pages.count > 3, "\(pages.count) tree requests")

        let engine = Engine(store: store, phonemizer: EspeakPhonemizer(), configuration: .init(threads: 2))
        var samples: [Float] = []
        for try await chunk in engine.synthesize(SynthesisRequest(text: "The weather is lovely today.", voice: "kokoro-am_kumo")) {
            #expect(chunk.sampleRate == 24000)
            samples += chunk.samples
        }
        #expect(samples.count > 24000)
        let whisper = try WhisperModel(directory: ModelStore().modelsDirectory.appendingPathComponent("whisper-tiny.en"), threads: 2)
        let segments = try await WhisperRecognizer(model: whisper).transcribeAll(
            AudioBuffer(mono: samples, sampleRate: 24000), options: TranscriptionOptions(beamSize: 1, temperatures: [0]))
        let heard = segments.map(\.text).joined().lowercased()
        #expect(heard.contains("weather") && heard.contains("today"), "Whisper heard '\(heard)'")
    }

    @Test func variantsAndUnknownOnes() throws {
        #expect(HubPull.modelID(of: try ModelReference(parsing: "kokoro-v1.0:q8f16"), catalogue: try ModelCatalogue.load()) == "kokoro-v1.0-q8f16")
        #expect(HubPull.modelID(of: try ModelReference(parsing: "kokoro-v1.0"), catalogue: try ModelCatalogue.load()) == "kokoro-v1.0")
        #expect { try ModelReference(parsing: "kokoro-v1.0:q3") } throws: { "\($0)".contains("no variant 'q3'") }
    }
}
