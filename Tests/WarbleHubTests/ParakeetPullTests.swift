import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarbleHub
import WarbleSpeech
import WarbleTestSupport

/// `warble models pull parakeet-tdt-0.6b-v3[:int8]` from the imitation (tools/parakeet's synthetic export laid out as
/// csukuangfj/sherpa-onnx-nemo-parakeet-tdt-0.6b-v3 and …-v3-int8), then the engine transcribes with it exactly as
/// sherpa-onnx 2.0.1 does (tools/parakeet/make_fixtures.py's goldens).
@Suite(.needs(fixtures: "hub"), .needs(fixtures: "parakeet"), .needsRuntime, .serialized) struct ParakeetPullTests {
    struct Golden: Decodable {
        let clip: String
        let model: String
        let text: String
        let ids: [Int]
    }

    struct Goldens: Decodable {
        let cases: [Golden]
    }

    @Test(arguments: [("parakeet-tdt-0.6b-v3", "parakeet-tdt-0.6b-v3", "f32",
                       ["decoder.onnx", "encoder.onnx", "encoder.weights", "joiner.onnx", "tokens.txt"]),
                      ("parakeet-tdt-0.6b-v3:int8", "parakeet-tdt-0.6b-v3-int8", "int8",
                       ["decoder.int8.onnx", "encoder.int8.onnx", "joiner.int8.onnx", "tokens.txt"])])
    func pullsAndTranscribesAsSherpaOnnx(reference: String, id: String, variant: String, files: [String]) async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let outcome = try await HubClient.with(environment: hub.environment()) { client in
            try await HubPull(client: client, installer: ModelInstaller(store: store), tools: nil).pull(ModelReference(parsing: reference))
        }
        guard case .installed(let model) = outcome else { Issue.record("expected an install"); return }
        #expect(model.manifest.id == id && model.manifest.family == "parakeet")
        #expect(model.manifest.files.map(\.path).sorted() == files)
        #expect(model.manifest.licence.hasPrefix("CC-BY-4.0") && model.manifest.languages.count == 25)
        #expect(model.verify(checksums: true).isEmpty)

        let engine = Engine(store: store, phonemizer: nil)
        let listed = await engine.recognitionModels().first { $0.id == id }
        #expect(listed?.canTranslate == false)
        let root = TestNeeds.generatedDirectory.appendingPathComponent("parakeet")
        let goldens = try JSONDecoder().decode(Goldens.self, from: Data(contentsOf: root.appendingPathComponent("goldens/decode.json")))
        let golden = try #require(goldens.cases.first { $0.clip == "short44k.wav" && $0.model == variant })
        let clip = try SoundFile.read(contentsOf: root.appendingPathComponent("clips/short44k.wav"))
        var segments: [TranscriptSegment] = []
        for try await segment in engine.transcribe(clip, model: id, options: TranscriptionOptions()) { segments.append(segment) }
        #expect(segments.map(\.text) == [golden.text] && segments.first?.tokens == golden.ids)
    }
}
