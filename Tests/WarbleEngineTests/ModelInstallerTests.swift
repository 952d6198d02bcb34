import Foundation
import Testing
import WarbleEngine
import WarbleSpeech

/// The installer's own checks, with a source that serves a directory (the Hub's transfers are tested
/// against its imitation in WarbleHubTests).
@Suite struct ModelInstallerTests {
    /// Serves files from a directory and counts what it was asked to fetch.
    final class DirectorySource: ModelSource, @unchecked Sendable {
        let root: URL
        private let lock = NSLock()
        private var fetched: [String] = []

        init(root: URL) { self.root = root }

        var origin: String { "directory \(root.path)" }
        var fetches: [String] { lock.withLock { fetched } }

        func fetch(_ file: RemoteFile, into partial: URL, progress: @escaping @Sendable (Int64) -> Void) async throws {
            lock.withLock { fetched.append(file.path) }
            let data = try Data(contentsOf: root.appendingPathComponent(file.path))
            try data.write(to: partial)
            progress(Int64(data.count))
        }
    }

    func home() throws -> ModelStore {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-installer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return ModelStore(home: home)
    }

    func plan(_ files: [(RemoteFile, String)]) -> ModelInstaller.Plan {
        ModelInstaller.Plan(id: "tiny-model", files: files) { _, entries in
            ModelManifest(id: "", family: "none", licence: "CC0-1.0", source: "", sampleRate: 16000, languages: [], files: entries)
        }
    }

    /// A model larger than the free space is refused before anything is fetched, naming both sizes.
    @Test func aModelLargerThanTheFreeSpaceIsRefusedFirst() async throws {
        let store = try home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let free = try #require((try FileManager.default.attributesOfFileSystem(forPath: store.home.path)[.systemFreeSize] as? NSNumber)?.int64Value)
        let source = DirectorySource(root: store.home)
        let huge = RemoteFile(path: "huge.bin", bytes: free + (1 << 30))
        await #expect { try await ModelInstaller(store: store).install(plan([(huge, "huge.bin")]), from: source) } throws: {
            let message = "\($0)"
            return message.contains("not enough disk space for tiny-model") && message.contains("MiB are free")
        }
        #expect(source.fetches.isEmpty)
        #expect((try? store.model("tiny-model")) == nil)
    }

    /// A file whose size or digest differs from what the source vouches for is deleted and named.
    @Test func aFileThatIsNotWhatTheSourceSaysIsRefused() async throws {
        let store = try home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let served = store.home.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: served.appendingPathComponent("a.txt"))
        let source = DirectorySource(root: served)
        let wrongDigest = RemoteFile(path: "a.txt", bytes: 5, sha256: String(repeating: "0", count: 64))
        await #expect { try await ModelInstaller(store: store).install(plan([(wrongDigest, "a.txt")]), from: source) } throws: {
            "\($0)".contains("sha256")
        }
        let partial = ModelInstaller(store: store).downloads(for: "tiny-model").appendingPathComponent("a.txt.incomplete")
        #expect(!FileManager.default.fileExists(atPath: partial.path))
        let right = RemoteFile(path: "a.txt", bytes: 5, sha256: try SHA256.hex(ofFile: served.appendingPathComponent("a.txt")),
                               md5: "5d41402abc4b2a76b9719d911017c592")
        let outcome = try await ModelInstaller(store: store).install(plan([(right, "a.txt")]), from: source)
        guard case .installed(let model) = outcome else { Issue.record("expected an install"); return }
        #expect(model.manifest.source == "directory \(served.path)" && model.verify(checksums: true).isEmpty)
    }
}
