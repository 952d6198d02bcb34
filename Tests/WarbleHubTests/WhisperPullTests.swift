import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarbleHub
import WarbleModels
import WarbleTestSupport

/// Whisper pulled from the imitation laid out as Systran/faster-whisper-tiny.en (the CTranslate2 files
/// of the set-up) and converted on pull by tools/whisper/convert_ct2.py: it transcribes, records what
/// it was made from, and a second pull downloads nothing; without the tools it says how to get them.
@Suite(.needs(fixtures: "hub"), .serialized) struct WhisperPullTests {
    static let tools = HubImitation.tools

    func pull(_ hub: HubImitation, _ store: ModelStore, tools: ConversionTools?) async throws -> ModelInstaller.Outcome {
        try await HubClient.with(environment: hub.environment()) { client in
            try await HubPull(client: client, installer: ModelInstaller(store: store), tools: tools)
                .pull(ModelReference(parsing: "whisper-tiny.en"))
        }
    }

    @Test(.needs(fixtures: "asr"), .needs(model: "whisper-tiny.en"), .needs(homeFile: "cache/whisper-ct2/whisper-tiny.en/model.bin"),
          .needsRuntime)
    func pulledAndConvertedWhisperTranscribes() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        guard case .installed(let model) = try await pull(hub, store, tools: Self.tools) else {
            Issue.record("expected an install"); return
        }
        #expect(model.manifest.family == "whisper" && model.manifest.converter == "tools/whisper/convert_ct2.py")
        #expect(model.manifest.derivedFrom?.files.keys.sorted() == ["config.json", "model.bin", "tokenizer.json", "vocabulary.txt"])
        let ct2 = ModelStore().home.appendingPathComponent("cache/whisper-ct2/whisper-tiny.en/model.bin")
        #expect(model.manifest.derivedFrom?.files["model.bin"] == (try SHA256.hex(ofFile: ct2)))
        #expect(model.manifest.files.contains { $0.path == "decoder.onnx" } && model.verify(checksums: false).isEmpty)
        // The same graphs the set-up's converter made from the same files.
        let setUp = try ModelStore().model("whisper-tiny.en")
        #expect(model.manifest.files.first { $0.path == "decoder.onnx" }?.sha256 == setUp.manifest.files.first { $0.path == "decoder.onnx" }?.sha256)

        let whisper = try WhisperModel(directory: model.directory, threads: 2)
        let clip = HubImitation.root.appendingPathComponent("Tests/Fixtures/generated/asr/en_fox.wav")
        let segments = try await WhisperRecognizer(model: whisper).transcribeAll(try SoundFile.read(contentsOf: clip),
                                                                               options: TranscriptionOptions(beamSize: 1))
        // tiny.en, greedy, hears this espeak-ng clip as "the quick roundfark jump over the lazy dog. ...".
        #expect(segments.map(\.text).joined().lowercased().contains("over the lazy dog"))

        let before = try await hub.log().count
        guard case .alreadyInstalled = try await pull(hub, store, tools: Self.tools) else { Issue.record("expected no download"); return }
        #expect(try await hub.log().dropFirst(before).allSatisfy { $0.method == "HEAD" || $0.path.contains("/revision/") })
    }

    @Test func withoutTheToolsTheErrorSaysWhereToGetThem() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        await #expect { _ = try await pull(hub, store, tools: nil) } throws: {
            "\($0)".contains("tools/whisper/convert_ct2.py") && "\($0)".contains("WARBLE_SOURCE_ROOT")
        }
        #expect(store.scan().models.isEmpty)
        #expect(try await hub.log().allSatisfy { $0.method == "HEAD" || $0.path.contains("/revision/") }, "nothing is downloaded before the tools are found")
        let broken = ConversionTools(root: HubImitation.root, python: URL(fileURLWithPath: "/nonexistent/python"))
        await #expect { _ = try await pull(hub, store, tools: broken) } throws: { "\($0)".contains("scripts/python-env.sh") }
        #expect(ConversionTools.locate(environment: ["WARBLE_SOURCE_ROOT": HubImitation.root.path], executable: nil)?.root.path
            == HubImitation.root.path)
        #expect(ConversionTools.locate(environment: [:], executable: URL(fileURLWithPath: "/usr/bin/true")) == nil)
    }

    /// A conversion that fails says why (the converter's own message) and keeps the downloads: the
    /// next pull converts without downloading again.
    @Test func aFailedConversionKeepsTheDownloads() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let fake = store.home.appendingPathComponent("fake-tools")
        try FileManager.default.createDirectory(at: fake.appendingPathComponent("tools/whisper"), withIntermediateDirectories: true)
        try Data("import sys\nsys.exit('convert_ct2: error: the disk is on fire')\n".utf8)
            .write(to: fake.appendingPathComponent("tools/whisper/convert_ct2.py"))
        let failing = ConversionTools(root: fake, python: Self.tools.python)
        await #expect { _ = try await pull(hub, store, tools: failing) } throws: { "\($0)".contains("the disk is on fire") }
        #expect(store.scan().models.isEmpty)
        let before = try await hub.log().count
        guard case .installed = try await pull(hub, store, tools: Self.tools) else { Issue.record("expected an install"); return }
        #expect(try await hub.log().dropFirst(before).allSatisfy { $0.method == "HEAD" || $0.path.contains("/revision/") }, "downloaded again")
    }
}
