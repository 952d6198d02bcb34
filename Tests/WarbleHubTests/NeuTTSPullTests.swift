import Foundation
import Testing
import WarbleEngine
import WarbleHub
@testable import WarbleModels
import ONNXRuntime
import WarbleSpeech
import WarblePhonemes
import WarbleTestSupport

/// NeuTTS's pulls, beside the other families' (in its own file, so that the family goes with its tests).
extension RepositoryPullTests {
    /// NeuTTS: a repository with its backbone already in ONNX is taken as it is; one published as
    /// safetensors only (as the authors publish theirs) is converted on pull by tools/neutts/convert.py,
    /// the safetensors kept only as `derivedFrom`; without the tools it is refused before any download.
    /// Both load, speaking through the NeuCodec decoder pulled beside them.
    @Test(.needsRuntime) func neuTTSIsTakenInONNXOrConvertedFromSafetensors() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        guard case .installed(let codec) = try await pull("neucodec", hub: hub, store: store),
              case .installed(let onnx) = try await pull("neutts-nano", hub: hub, store: store) else {
            Issue.record("expected installs"); return
        }
        #expect(codec.manifest.files.map(\.path).sorted() == ["meta.yaml", "model.onnx"])
        #expect(onnx.manifest.converter == nil && onnx.manifest.files.contains { $0.path == "onnx/model.onnx_data" })
        #expect(onnx.manifest.files.contains { $0.path == "model.safetensors" } == false)
        await #expect { try await pull("neutts-nano-german", hub: hub, store: store) } throws: {
            "\($0)".contains("converted to ONNX on pull by tools/neutts/convert.py")
        }
        #expect(!FileManager.default.fileExists(atPath: store.modelsDirectory.appendingPathComponent("neutts-nano-german").path))
        guard case .installed(let converted) = try await pull("neutts-nano-german", hub: hub, store: store, tools: HubImitation.tools) else {
            Issue.record("expected an install"); return
        }
        #expect(converted.manifest.converter == "tools/neutts/convert.py" && converted.manifest.languages == ["de"])
        #expect(Set(converted.manifest.files.map(\.path)).isSuperset(of: ["onnx/model.onnx", "onnx/model.onnx_data", "config.json", "tokenizer.json"]))
        #expect(!converted.manifest.files.contains { $0.path == "model.safetensors" } && converted.verify(checksums: true).isEmpty)
        #expect(converted.manifest.derivedFrom?.files["model.safetensors"] != nil)
        let codecFiles = ModelFiles(manifest: codec.manifest, directory: codec.directory)
        for model in [onnx, converted] {
            let loaded = try NeuTTSFamily().load(ModelFiles(manifest: model.manifest, directory: model.directory),
                                                 context: FamilyContext(phonemizer: EspeakPhonemizer(), installed: [codecFiles]))
            let renderer = try #require(loaded.renderer as? NeuTTSModel)
            #expect(renderer.backbone.layers == 3 && renderer.sampleRate == 24_000)
        }
        #expect {
            try NeuTTSFamily().load(ModelFiles(manifest: onnx.manifest, directory: onnx.directory), context: FamilyContext(phonemizer: EspeakPhonemizer()))
        } throws: { "\($0)".contains("run `warble models pull neucodec`") }
    }
}
