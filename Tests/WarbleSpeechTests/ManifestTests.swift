import Foundation
import Testing
@testable import WarbleSpeech

@Suite struct ManifestTests {
    @Test func decodesTheSharedManifestFormat() throws {
        let json = """
            {"id": "whisper-tiny.en", "family": "whisper", "displayName": "Whisper tiny.en", "licence": "MIT",
             "source": "PyPI", "sampleRate": 16000, "languages": ["en"], "voices": [],
             "files": [{"path": "encoder.onnx", "sha256": "ab", "bytes": 3}],
             "config": {"n_mels": 80, "multilingual": false, "suppress": [1, 2], "name": null}}
            """
        let manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(json.utf8))
        #expect(manifest.id == "whisper-tiny.en")
        #expect(manifest.totalBytes == 3)
        #expect(manifest.config?["n_mels"]?.int == 80)
        #expect(manifest.config?["multilingual"]?.bool == false)
        #expect(manifest.config?["suppress"]?.array?.compactMap(\.int) == [1, 2])
        #expect(manifest.config?["name"] == .null)
        let again = try JSONDecoder().decode(ModelManifest.self, from: try JSONEncoder().encode(manifest))
        #expect(again == manifest)
    }

    @Test func eventsShift() {
        let events: [SpeechEvent] = [
            .mark(name: "a", sampleOffset: 3), .word(sourceRange: 0..<4, sampleOffset: 10, estimated: true),
            .sentence(sourceRange: 0..<9, sampleOffset: 0),
        ]
        #expect(events.map { $0.shifted(by: 100).sampleOffset } == [103, 110, 100])
    }
}
