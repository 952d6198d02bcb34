import Foundation
import Testing
import WarbleEngine
import WarbleHub
@testable import WarbleModels
import ONNXRuntime
import WarbleSpeech
import WarblePhonemes
import WarbleTestSupport

/// The catalogue's other families pulled from the imitation as published (tools/hub/make_fixtures.py
/// lays their repositories out as the catalogue says, with small random files), and repositories
/// pulled by name with `--family` (`hf:OWNER/REPO`).
@Suite(.needs(fixtures: "hub"), .serialized) struct RepositoryPullTests {
    func pull(_ text: String, family: String? = nil, hub: HubImitation, store: ModelStore,
              tools: ConversionTools? = nil) async throws -> ModelInstaller.Outcome {
        try await HubClient.with(environment: hub.environment()) { client in
            try await HubPull(client: client, installer: ModelInstaller(store: store), tools: tools)
                .pull(ModelReference(parsing: text, family: family))
        }
    }

    /// CosyVoice 3's fp16 files wherever the repository keeps them (its tokenizer under tokenizer/),
    /// each checked, mapped by name in the manifest; the engine lists no voice for a family it cannot run.
    @Test func cosyVoiceFilesAreFoundWhereverTheRepositoryKeepsThem() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        guard case .installed(let model) = try await pull("cosyvoice3", hub: hub, store: store) else {
            Issue.record("expected an install"); return
        }
        let entry = try #require(try ModelCatalogue.load().entry("cosyvoice3"))
        let wanted = try entry.files(variant: "fp16")
        #expect(model.manifest.id == "cosyvoice3" && model.manifest.family == "cosyvoice3")
        #expect(model.manifest.files.count == wanted.files.count + wanted.oneOf.count)
        #expect(model.manifest.files.contains { $0.path == "tokenizer/vocab.json" } && !model.manifest.files.contains { $0.path == "README.md" })
        #expect(model.verify(checksums: true).isEmpty)
        #expect(model.manifest.licence.hasPrefix("Apache-2.0") && model.manifest.source.hasPrefix("Hugging Face ayousanz/cosy-voice3-onnx@"))
        guard case .object(let config) = model.manifest.config, case .object(let files) = config["files"] else {
            Issue.record("no config.files in \(String(describing: model.manifest.config))"); return
        }
        #expect(files["vocab.json"] == .string("tokenizer/vocab.json") && files["campplus.onnx"] == .string("campplus.onnx"))
        let engine = Engine(store: store, phonemizer: nil)
        #expect(await engine.voices.isEmpty)

        // The repository publishes no fp32 LLM/flow graphs (as the community upload script sends them), so
        // the catalogue offers no fp32 variant: refused before any download.
        await #expect { try await pull("cosyvoice3:fp32", hub: hub, store: store) } throws: {
            "\($0)".contains("cosyvoice3 has no variant 'fp32'; its variants are fp16")
        }
        #expect((try? store.model("cosyvoice3-fp32")) == nil)
        // Without the tools the fp16 graphs are kept as published, and the manifest says why.
        #expect(model.manifest.converter == nil && model.manifest.notes?.first?.contains("widen_fp16.py") == true)
    }

    /// With the tools, the fp16 graphs are widened to f32 on pull (they run slower as f16 on a CPU):
    /// recorded in the manifest, checksummed as installed, and the model loads with an f32 KV cache.
    @Test(.needsRuntime) func cosyVoicesFP16GraphsAreWidenedOnPull() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        guard case .installed(let model) = try await pull("cosyvoice3", hub: hub, store: store, tools: HubImitation.tools) else {
            Issue.record("expected an install"); return
        }
        #expect(model.manifest.converter == "tools/cosyvoice3/widen_fp16.py" && model.manifest.notes == nil)
        #expect(model.manifest.displayName == "cosyvoice3 (fp16, widened to f32)")
        #expect(model.verify(checksums: true).isEmpty)
        guard case .object(let config) = model.manifest.config, case .array(let widened) = config["widened"] else {
            Issue.record("no config.widened in \(String(describing: model.manifest.config))"); return
        }
        #expect(widened.count == 8)
        let cosy = try CosyVoice3Model(directory: model.directory, manifest: model.manifest)
        #expect(cosy.llm.cacheElementType == .float32 && cosy.files.variant == "fp16")
    }

    /// Chatterbox Turbo's fp16 graphs, with the .onnx_data sidecars that are there.
    @Test func chatterboxTakesTheSidecarsThatExist() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        guard case .installed(let model) = try await pull("chatterbox-turbo:fp16", hub: hub, store: store) else {
            Issue.record("expected an install"); return
        }
        #expect(model.manifest.id == "chatterbox-turbo-fp16")
        let paths = model.manifest.files.map(\.path)
        #expect(paths.filter { $0.hasSuffix("_fp16.onnx") }.count == 4 && paths.filter { $0.hasSuffix(".onnx_data") }.count == 3)
        #expect(paths.contains("tokenizer.json"))
        // The fp32 files (tools/chatterbox's synthetic graphs): installed with their sidecars, and the family loads them.
        guard case .installed(let fp32) = try await pull("chatterbox-turbo", hub: hub, store: store) else {
            Issue.record("expected an install"); return
        }
        #expect(fp32.manifest.id == "chatterbox-turbo" && fp32.manifest.files.filter { $0.path.hasSuffix(".onnx_data") }.count == 4)
        let loaded = try ChatterboxModel(directory: fp32.directory, modelID: fp32.manifest.id,
                                        configuration: .init(variant: "fp32"))
        #expect(loaded.files.variant == "fp32" && loaded.llm.layers == 3)
        // A variant the repository does not publish: the error names what is missing and what is published.
        await #expect { try await pull("chatterbox-turbo:q4", hub: hub, store: store) } throws: {
            "\($0)".contains("it lacks onnx/speech_encoder_q4.onnx")
                && "\($0)".contains("the variants it publishes: chatterbox-turbo:fp16, chatterbox-turbo:fp32, chatterbox-turbo:q4f16")
        }
        #expect((try? store.model("chatterbox-turbo-q4")) == nil)
    }

    /// A variant with a repository of its own (NeuCodec's int8 decoder).
    @Test func aVariantCanLiveInAnotherRepository() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        guard case .installed(let model) = try await pull("neucodec:int8", hub: hub, store: store) else {
            Issue.record("expected an install"); return
        }
        #expect(model.manifest.id == "neucodec-int8" && model.manifest.source.contains("neuphonic/neucodec-onnx-decoder-int8@"))
        #expect(model.manifest.files.map(\.path).sorted() == ["meta.yaml", "model.onnx"])
    }

    /// `hf:OWNER/REPO --family piper`: a repository holding one voice, installed as piper-OWNER--REPO.
    /// A repository laid out otherwise is refused with what it lacks.
    @Test(.needs(model: "piper-en_US-joe-medium")) func anyRepositoryLaidOutAsAFamily() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        guard case .installed(let model) = try await pull("hf:someone/joe-voice", family: "piper", hub: hub, store: store) else {
            Issue.record("expected an install"); return
        }
        #expect(model.manifest.id == "piper-someone--joe-voice" && model.manifest.voices.map(\.id) == ["en_US-joe-medium"])
        #expect(model.manifest.languages == ["en-US"] && model.verify(checksums: false).isEmpty)
        let setUp = try ModelStore().model("piper-en_US-joe-medium")
        #expect(model.manifest.files.first { $0.path == "model.onnx" }?.sha256 == setUp.manifest.files.first { $0.path == "model.onnx" }?.sha256)

        await #expect { try await pull("hf:ayousanz/cosy-voice3-onnx", family: "chatterbox", hub: hub, store: store) } throws: {
            "\($0)".contains("ayousanz/cosy-voice3-onnx is not laid out as chatterbox-turbo")
        }
        await #expect { try await pull("hf:ayousanz/cosy-voice3-onnx", family: "piper", hub: hub, store: store) } throws: {
            "\($0)".contains("holds no Piper voice")
        }
        await #expect { try await pull("hf:nobody/nothing", family: "piper", hub: hub, store: store) } throws: {
            ($0 as? HubError)?.kind == .notFound
        }
    }
}
