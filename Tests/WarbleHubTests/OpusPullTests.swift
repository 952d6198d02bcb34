import Foundation
import Testing
import WarbleEngine
import WarbleHub
import WarbleModels
import WarbleSpeech
import WarbleTestSupport

/// Opus-MT pulled from the imitation laid out as Helsinki-NLP/opus-mt-en-de (pytorch_model.bin only)
/// and Helsinki-NLP/opus-mt-tc-big-en-fr (float16 model.safetensors only; </s> not at 0), converted
/// on pull by tools/marian/convert_opus.py: the installed models translate exactly as transformers'
/// `generate` (greedy and num_beams=4) on tools/marian/make_opus_fixtures.py's goldens.
@Suite(.needs(fixtures: "hub"), .serialized) struct OpusPullTests {
    struct Case: Decodable {
        let text: String
        let greedy: [Int]
        let beam4: [Int]
        let greedyText: String
        let beam4Text: String
    }

    struct Golden: Decodable { let cases: [Case] }

    func pull(_ hub: HubImitation, _ store: ModelStore, _ reference: String, family: String? = nil,
              tools: ConversionTools? = HubImitation.tools) async throws -> ModelInstaller.Outcome {
        try await HubClient.with(environment: hub.environment()) { client in
            try await HubPull(client: client, installer: ModelInstaller(store: store), tools: tools)
                .pull(ModelReference(parsing: reference, family: family))
        }
    }

    @Test(.needsRuntime, arguments: [("opus-mt-en-de", "de", "pytorch_model.bin"), ("opus-mt-tc-big-en-fr", "fr", "model.safetensors")])
    func pulledAndConvertedTranslatesAsTransformers(_ id: String, _ target: String, _ weights: String) async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        guard case .installed(let model) = try await pull(hub, store, id) else { Issue.record("expected an install"); return }
        #expect(model.manifest.id == id && model.manifest.family == "marian")
        #expect(model.manifest.converter == "tools/marian/convert_opus.py")
        #expect(model.manifest.languages == ["en", target])
        #expect(model.manifest.derivedFrom?.files.keys.contains(weights) == true)
        #expect(model.manifest.licence.hasPrefix("CC-BY-4.0"))
        #expect(model.verify(checksums: false).isEmpty)
        let loaded = try ModelFamilies.builtIn.load(ModelFiles(manifest: model.manifest, directory: model.directory),
                                                    context: FamilyContext(phonemizer: nil))
        let translator = try #require(loaded.translator as? OpusTranslator)
        let golden = try JSONDecoder().decode(Golden.self, from: Data(contentsOf: HubImitation.root
            .appendingPathComponent("Tests/Fixtures/generated/hub/opus-goldens/\(id).json")))
        for c in golden.cases {
            #expect(try translator.translationIDs(ofSentence: c.text, beamSize: 1) == c.greedy, "\(c.text)")
            #expect(try translator.translate(sentence: c.text, beamSize: 4) == c.beam4Text, "\(c.text)")
        }
    }

    @Test(.needsRuntime) func theInt8VariantAndRepositoryReferences() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        guard case .installed(let int8) = try await pull(hub, store, "opus-mt-en-de:int8") else { Issue.record("expected an install"); return }
        #expect(int8.manifest.id == "opus-mt-en-de-int8")
        guard case .installed(let byRepo) = try await pull(hub, store, "hf:Helsinki-NLP/opus-mt-tc-big-en-fr", family: "marian") else {
            Issue.record("expected an install"); return
        }
        #expect(byRepo.manifest.id == "marian-Helsinki-NLP--opus-mt-tc-big-en-fr" && byRepo.manifest.languages == ["en", "fr"])
    }

    @Test func referencesAndErrors() async throws {
        #expect(try ModelReference(parsing: "opus-mt-en-de").description == "opus-mt-en-de")
        #expect(try ModelReference(parsing: "opus-mt-tc-big-en-fr:int8").variant == "int8")
        #expect { _ = try ModelReference(parsing: "opus-mt-xx-yy") } throws: { "\($0)".contains("hf:Helsinki-NLP/opus-mt-xx-yy") }
        let catalogue = try ModelCatalogue.load()
        let entry = try #require(catalogue.templated("opus-mt-en-jap"))
        #expect(entry.size == "en-jap" && entry.entry.languages(size: "en-jap") == ["en", "ja"])
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        await #expect { _ = try await pull(hub, store, "opus-mt-en-de", tools: nil) } throws: {
            "\($0)".contains("tools/marian/convert_opus.py") && "\($0)".contains("WARBLE_SOURCE_ROOT")
        }
    }
}
