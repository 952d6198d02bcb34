import Foundation
import Testing
import WarbleEngine
import WarbleHub

/// The Hub settings as huggingface_hub reads them, model references, and MD5.
@Suite struct HubBasicsTests {
    @Test func environmentFollowsHuggingfaceHub() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("hf_from_file\n".utf8).write(to: dir.appendingPathComponent("token"))

        let plain = HubEnvironment(environment: ["HOME": "/nonexistent"])
        #expect(plain.endpoint == "https://huggingface.co" && plain.token == nil && !plain.offline)
        let both = HubEnvironment(environment: ["HF_TOKEN": "hf_a", "HUGGING_FACE_HUB_TOKEN": "hf_b", "HF_HOME": dir.path])
        #expect(both.token == "hf_a" && both.tokenOrigin == "HF_TOKEN")
        let old = HubEnvironment(environment: ["HUGGING_FACE_HUB_TOKEN": "hf_b", "HF_HOME": dir.path])
        #expect(old.token == "hf_b")
        let file = HubEnvironment(environment: ["HF_HOME": dir.path, "HF_ENDPOINT": "http://mirror.local:8080//"])
        #expect(file.token == "hf_from_file" && file.tokenOrigin == dir.appendingPathComponent("token").path)
        #expect(file.endpoint == "http://mirror.local:8080")
        for value in ["1", "true", "YES", "on"] { #expect(HubEnvironment(environment: ["HF_HUB_OFFLINE": value]).offline) }
        #expect(HubEnvironment(environment: ["TRANSFORMERS_OFFLINE": "1"]).offline)
        #expect(!HubEnvironment(environment: ["HF_HUB_OFFLINE": "0"]).offline)
        #expect(file.resolveURL(repo: "a/b", revision: "refs/pr/1", path: "onnx/model q.onnx")
            == "http://mirror.local:8080/a/b/resolve/refs%2Fpr%2F1/onnx/model%20q.onnx")
    }

    @Test func references() throws {
        let r = try ModelReference(parsing: "piper:de_DE-thorsten-medium@abc123")
        #expect(r.family == "piper" && r.name == "de_DE-thorsten-medium" && r.revision == "abc123")
        #expect(try ModelReference(parsing: "Piper:x").revision == "main")
        #expect(throws: HubError.self) { try ModelReference(parsing: "en_US-joe-medium") }
        #expect(throws: HubError.self) { try ModelReference(parsing: "piper:") }
        #expect { try ModelReference(parsing: "cosyvoice3:default") } throws: { "\($0)".contains("cannot pull 'cosyvoice3:default' yet") }
        #expect { try ModelReference(parsing: "tacotron") } throws: { "\($0)".contains("is not a model warble can pull") }
        #expect { try ModelReference(parsing: "whisper-large-v3") } throws: { "\($0)".contains("sizes: whisper-tiny") }
        #expect(try ModelReference(parsing: "whisper-small.en").name == "small.en")
        #expect(try ModelReference(parsing: "piper:en_GB-alan-low@abc").description == "piper:en_GB-alan-low@abc")
        #expect(HubPull.modelID(of: r) == "piper-de_DE-thorsten-medium")
    }

    /// RFC 1321's test suite.
    @Test func md5() {
        #expect(MD5.hex(Data()) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex(Data("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(MD5.hex(Data("message digest".utf8)) == "f96b697d7cb7938d525a2f31aaf161d0")
        let digits = String(repeating: "1234567890", count: 8)
        #expect(MD5.hex(Data(digits.utf8)) == "57edf4a22be3c955ac49da2e2107b67a")
        var split = MD5()
        split.update(Data(digits.prefix(13).utf8))
        split.update(Data(digits.dropFirst(13).utf8))
        #expect(split.finalizeHex() == "57edf4a22be3c955ac49da2e2107b67a")
    }

    @Test func badModelIDsAreRefused() async throws {
        let store = ModelStore(home: FileManager.default.temporaryDirectory.appendingPathComponent("ids-\(UUID().uuidString)"))
        let plan = ModelInstaller.Plan(id: "../escape", files: []) { _, files in
            ModelManifest(id: "", family: "piper", licence: "", source: "", sampleRate: 1, languages: [], files: files)
        }
        struct Nowhere: ModelSource {
            var origin: String { "nowhere" }
            func fetch(_ file: RemoteFile, into partial: URL, progress: @escaping @Sendable (Int64) -> Void) async throws {}
        }
        await #expect { _ = try await ModelInstaller(store: store).install(plan, from: Nowhere()) } throws: {
            "\($0)".contains("cannot be a model id")
        }
    }
}
