import Foundation
import Testing
import WarbleEngine
import WarbleSpeech
import WarbleTestSupport

/// A model pulled or removed while an engine runs (a server, the speech-dispatcher module) shows in
/// its voices on the next request: the engine reads the models again when their directory changed.
@Suite struct EngineModelRefreshTests {
    @Test(.needs(model: "piper-en_US-joe-medium")) func aModelInstalledWhileTheEngineRunsIsListed() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-refresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let store = ModelStore(home: home)
        try FileManager.default.createDirectory(at: store.modelsDirectory, withIntermediateDirectories: true)
        let engine = Engine(store: store, phonemizer: nil)
        #expect(await engine.voices.isEmpty)

        // The set-up's default voice, linked in file by file the way an install renames a finished directory into place.
        let original = try ModelStore().model("piper-en_US-joe-medium")
        let building = store.modelsDirectory.appendingPathComponent(".piper-en_US-joe-medium.installing")
        try FileManager.default.createDirectory(at: building, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: original.directory.path) {
            try FileManager.default.linkItem(at: original.directory.appendingPathComponent(name), to: building.appendingPathComponent(name))
        }
        let installed = store.modelsDirectory.appendingPathComponent("piper-en_US-joe-medium")
        try FileManager.default.moveItem(at: building, to: installed)
        #expect(await engine.voices.map(\.id) == ["en_US-joe-medium"])
        #expect(try await engine.voice("en_US-joe-medium").model == "piper-en_US-joe-medium")

        try FileManager.default.removeItem(at: installed)
        #expect(await engine.voices.isEmpty)
        await #expect(throws: ModelError.self) { try await engine.voice("en_US-joe-medium") }
    }
}
