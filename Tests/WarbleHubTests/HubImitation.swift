import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WarbleEngine
import WarbleHub

/// tools/hub/hub_server.py, the local imitation of the Hugging Face Hub, run as a subprocess over a
/// tree laid out as `rhasspy/piper-voices` with the installed default voice and a 4 MB fake one
/// (tools/hub/make_fixtures.py).
/// Started per test with the faults it asks for; the port is read from its first line (no sleeping).
final class HubImitation: @unchecked Sendable {
    static let token = "hf_warble_test_token"
    static let voiceKey = "en_US-joe-medium"
    static let voicePath = "en/en_US/joe/medium/en_US-joe-medium.onnx"
    /// A voice of random bytes (4 MB, the real voice's configuration): quick transfers for the fault
    /// tests, where hashing 60 MB in a debug build would dominate. It is never loaded.
    static let fakeKey = "en_US-fake-medium"
    static let fakePath = "en/en_US/fake/medium/en_US-fake-medium.onnx"

    let process = Process()
    let endpoint: String

    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url
    }()

    /// `$WARBLE_HOME/models` of the test run (where scripts/setup.sh put the default voice).
    static var installedModels: URL {
        ModelStore().modelsDirectory
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The repository tree tools/hub/make_fixtures.py made from the installed voice.
    static var tree: Result<URL, any Error> {
        Result {
            let dir = root.appendingPathComponent("Tests/Fixtures/generated/hub/tree")
            guard FileManager.default.fileExists(atPath: dir.appendingPathComponent("rhasspy/piper-voices/voices.json").path) else {
                throw Missing(description: "\(dir.path) is missing: run scripts/test.sh (tools/hub/make_fixtures.py makes it)")
            }
            return dir
        }
    }

    init(_ flags: [String] = []) throws {
        let tree = try Self.tree.get()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.root.appendingPathComponent("tools/hub/hub_server.py").path,
                             "--root", tree.path, "--port", "0"] + flags
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line says where it listens; reading blocks until it is there.
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "http://") else {
            kill(process.processIdentifier, SIGKILL)
            throw Missing(description: "the Hub imitation did not start: '\(text)'")
        }
        endpoint = String(text[range.lowerBound...]).trimmingCharacters(in: .whitespaces)
    }

    deinit {
        // SIGKILL: SIGTERM can be ignored by a child of the test runner, and Foundation's
        // waitUntilExit spins; Foundation reaps the child.
        kill(process.processIdentifier, SIGKILL)
    }

    func environment(token: String? = nil, offline: Bool = false) -> HubEnvironment {
        HubEnvironment(endpoint: endpoint, token: token, tokenOrigin: token == nil ? nil : "HF_TOKEN", offline: offline)
    }

    /// A request the imitation saw (its `/_test/log`).
    struct Logged: Decodable {
        var method: String
        var host: String
        var path: String
        var range: String?
        var status: Int
        var authorization: Bool
        var droppedAfter: Int?

        enum CodingKeys: String, CodingKey {
            case method, host, path, range, status, authorization
            case droppedAfter = "dropped_after"
        }
    }

    func log() async throws -> [Logged] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: endpoint + "/_test/log")!)
        return try JSONDecoder().decode([Logged].self, from: data)
    }

    /// A fresh, empty `$WARBLE_HOME` for one test.
    static func home() throws -> ModelStore {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("warble-pull-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return ModelStore(home: dir)
    }

    /// Pulls a test voice (the fake one unless asked) into `store` through a client of `environment`.
    /// The project's Python tools (for the conversions on pull).
    static let tools = ConversionTools(root: root, python: root.appendingPathComponent(".venv/bin/python"))

    /// Pulls the Piper voice `key`; without `tools` (the default) no conversion is tried, so the
    /// fault tests' random-byte voice is installed as served.
    static func pull(_ environment: HubEnvironment, into store: ModelStore, key: String = fakeKey, tools: ConversionTools? = nil,
                     progress: @escaping @Sendable (ModelInstaller.Progress) -> Void = { _ in },
                     waiting: @escaping @Sendable () -> Void = {}) async throws -> ModelInstaller.Outcome {
        try await HubClient.with(environment: environment) { client in
            try await HubPull(client: client, installer: ModelInstaller(store: store), tools: tools)
                .pull(ModelReference(parsing: "piper:\(key)"), waiting: waiting, progress: progress)
        }
    }
}
