import Foundation
import Testing
@testable import WarbleEngine

@Suite struct ModelStoreTests {
    private func makeHome() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("models"), withIntermediateDirectories: true)
        return home
    }

    private func install(_ id: String, in home: URL, content: String = "weights") throws -> ModelManifest {
        let directory = home.appendingPathComponent("models/\(id)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let data = Data(content.utf8)
        try data.write(to: directory.appendingPathComponent("model.onnx"))
        let manifest = ModelManifest(
            id: id, family: "piper", licence: "MIT", source: "test", sampleRate: 22050, languages: ["en-US"],
            voices: [.init(id: "\(id)-voice", language: "en-US", gender: "male")],
            files: [.init(path: "model.onnx", sha256: SHA256.hex(data), bytes: data.count)],
            config: .object(["noise_scale": .number(0.667), "name": .string(id)]))
        try JSONEncoder().encode(manifest).write(to: directory.appendingPathComponent("manifest.json"))
        return manifest
    }

    @Test func scansAndVerifiesInstalledModels() throws {
        let home = try makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let a = try install("alpha", in: home)
        _ = try install("beta", in: home)
        let store = ModelStore(home: home)
        let (models, problems) = store.scan()
        #expect(models.map(\.manifest.id) == ["alpha", "beta"])
        #expect(problems.isEmpty)
        let alpha = try store.model("alpha")
        #expect(alpha.manifest == a)
        #expect(alpha.manifest.config?["noise_scale"]?.number == 0.667)
        #expect(alpha.verify(checksums: true).isEmpty)
    }

    @Test func reportsChangedAndMissingFiles() throws {
        let home = try makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try install("alpha", in: home)
        let file = home.appendingPathComponent("models/alpha/model.onnx")
        try Data("WEIGHTS".utf8).write(to: file)  // same size, other bytes
        let model = try ModelStore(home: home).model("alpha")
        #expect(model.verify(checksums: false).isEmpty)
        #expect(model.verify(checksums: true).first?.contains("sha256") == true)
        try FileManager.default.removeItem(at: file)
        #expect(model.verify(checksums: false) == ["\(file.path) is missing"])
    }

    @Test func missingModelSaysHowToInstall() throws {
        let home = try makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try install("alpha", in: home)
        let error = #expect(throws: ModelStoreError.self) { _ = try ModelStore(home: home).model("gamma") }
        #expect(error?.kind == .notInstalled)
        #expect(error?.message.contains("installed: alpha") == true)
        #expect(error?.message.contains("install it with `warble models pull`") == true)
    }

    @Test func brokenManifestIsAProblemNotACrash() throws {
        let home = try makeHome()
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try install("alpha", in: home)
        let broken = home.appendingPathComponent("models/broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: broken.appendingPathComponent("manifest.json"))
        let (models, problems) = ModelStore(home: home).scan()
        #expect(models.map(\.manifest.id) == ["alpha"])
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("not a valid manifest") == true)
    }
}

/// The int8 installer's manifests (tools/whisper/quantize_int8.py) name the f32 model they were made
/// from as `derivedFrom: {id, files: {name: sha256}}`: the store reads them.
@Suite struct DerivedManifestTests {
    @Test func int8ManifestsRead() throws {
        let json = """
            {"id": "whisper-tiny.en-int8", "family": "whisper", "licence": "MIT", "source": "x", "sampleRate": 16000,
             "languages": ["en"], "voices": [], "files": [], "quantization": "int8-dynamic",
             "derivedFrom": {"id": "whisper-tiny.en", "files": {"encoder.onnx": "ab", "decoder.onnx": "cd"}}}
            """
        let manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(json.utf8))
        #expect(manifest.derivedFrom == .init(id: "whisper-tiny.en", files: ["encoder.onnx": "ab", "decoder.onnx": "cd"]))
        let again = try JSONDecoder().decode(ModelManifest.self, from: JSONEncoder().encode(manifest))
        #expect(again == manifest)
    }
}
