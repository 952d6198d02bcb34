import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarbleHub
import WarbleSpeech
import WarbleTestSupport

/// `warble models pull sensevoice-small[:int8]` from the imitation (tools/sensevoice's synthetic export laid out as
/// csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17), then the engine transcribes with it exactly as
/// sherpa-onnx 2.0.1 does (tools/sensevoice/make_fixtures.py's goldens).
@Suite(.needs(fixtures: "hub"), .needs(fixtures: "sensevoice"), .needsRuntime, .serialized) struct SenseVoicePullTests {
    struct Golden: Decodable {
        let clip: String
        let model: String
        let language: String
        let text: String
        let ids: [Int]
    }

    struct Goldens: Decodable {
        let cases: [Golden]
    }

    @Test(arguments: [("sensevoice-small", "sensevoice-small", "model.onnx"),
                      ("sensevoice-small:int8", "sensevoice-small-int8", "model.int8.onnx")])
    func pullsAndTranscribesAsSherpaOnnx(reference: String, id: String, graph: String) async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let outcome = try await HubClient.with(environment: hub.environment()) { client in
            try await HubPull(client: client, installer: ModelInstaller(store: store), tools: nil).pull(ModelReference(parsing: reference))
        }
        guard case .installed(let model) = outcome else { Issue.record("expected an install"); return }
        #expect(model.manifest.id == id && model.manifest.family == "sensevoice")
        #expect(model.manifest.files.map(\.path).sorted() == [graph, "tokens.txt"])
        #expect(model.manifest.licence.hasPrefix("FunASR Model Open Source License Agreement"))
        #expect(model.manifest.languages == ["zh", "en", "yue", "ja", "ko"] && model.verify(checksums: true).isEmpty)

        let engine = Engine(store: store, phonemizer: nil)
        let listed = await engine.recognitionModels().first { $0.id == id }
        #expect(listed?.canTranslate == false)
        let root = TestNeeds.generatedDirectory.appendingPathComponent("sensevoice")
        let goldens = try JSONDecoder().decode(Goldens.self, from: Data(contentsOf: root.appendingPathComponent("goldens/decode.json")))
        let golden = try #require(goldens.cases.first { $0.clip == "short44k.wav" && $0.model == graph && $0.language == "auto" })
        let clip = try SoundFile.read(contentsOf: root.appendingPathComponent("clips/short44k.wav"))
        var segments: [TranscriptSegment] = []
        for try await segment in engine.transcribe(clip, model: id, options: TranscriptionOptions()) { segments.append(segment) }
        #expect(segments.map(\.text) == [golden.text] && segments.first?.tokens == golden.ids)
    }
}
