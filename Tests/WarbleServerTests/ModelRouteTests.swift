import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleServer
import WarbleSpeech

/// A model library that pulls nothing from anywhere: progress in 1,000 one-byte steps, then done (the real one,
/// the Hub client's, is exercised through `warble serve` against the Hub imitation in tools/server/e2e_models.py).
final class SteppingModelLibrary: ModelLibraryBackend, @unchecked Sendable {
    private let lock = NSLock()
    private var installed: Set<String> = ["tiny-voice", "default-voice"]

    var ids: Set<String> { lock.withLock { installed } }

    func pullableModels() async throws -> [PullableModel] {
        [PullableModel(id: "tiny-voice", reference: "tiny:voice", family: "tiny", language: "en_US", bytes: 1000, licence: "MIT",
                       installed: ids.contains("tiny-voice")),
         PullableModel(id: "big-model", reference: "big", family: "big", language: "multilingual", licence: "Apache-2.0", gated: true)]
    }

    func pullModel(_ reference: String, progress: @escaping @Sendable (ModelPullProgress) -> Void) async throws -> PulledModel {
        guard reference == "big" else {
            throw APIError(.badRequest, "'\(reference)' is not a model warble can pull", param: "model", code: "invalid_value")
        }
        for step in 1...1000 {
            try Task.checkCancellation()
            progress(ModelPullProgress(file: step <= 500 ? "a.onnx" : "b.json", fileBytes: Int64((step - 1) % 500 + 1), fileTotal: 500,
                                       bytes: Int64(step), total: 1000))
        }
        lock.withLock { _ = installed.insert("big-model") }
        return PulledModel(id: "big-model", bytes: 1000, alreadyInstalled: false)
    }

    func removeModel(_ id: String) async throws {
        guard id != "default-voice" else {
            throw APIError(.conflict, "default-voice is a default model of this server: it is not removed", code: "model_is_default")
        }
        try lock.withLock {
            guard installed.remove(id) != nil else { throw APIError(.notFound, "no model '\(id)' is installed", code: "model_not_found") }
        }
    }
}

/// A pull that starts (said through `started`) and waits until `release` is called.
final class GatedModelLibrary: ModelLibraryBackend, @unchecked Sendable {
    let (started, startedContinuation) = AsyncStream<Void>.makeStream()
    private let (gate, gateContinuation) = AsyncStream<Void>.makeStream()

    func release() { gateContinuation.finish() }

    func pullableModels() async throws -> [PullableModel] { [] }

    func pullModel(_ reference: String, progress: @escaping @Sendable (ModelPullProgress) -> Void) async throws -> PulledModel {
        startedContinuation.yield()
        for await _ in gate {}
        return PulledModel(id: reference, bytes: 1, alreadyInstalled: false)
    }

    func removeModel(_ id: String) async throws {}
}

struct ModelRouteTests {
    static let key = "sekret"
    static var authorised: HTTPFields { [.authorization: "Bearer \(key)", .contentType: "application/json"] }

    func withServer<Value: Sendable>(apiKey: String? = key, library: (any ModelLibraryBackend)? = SteppingModelLibrary(),
                                     _ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let server = SpeechServer(backend: FakeSpeechBackend(), modelLibrary: library, configuration: ServerConfiguration(apiKey: apiKey))
        return try await Application(router: server.makeRouter()).test { try await body($0) }
    }

    /// The `data:` payloads of a server-sent event stream, as JSON objects.
    static func events(_ response: TestResponse) throws -> [[String: Any]] {
        try text(response).components(separatedBy: "\n\n").filter { $0.hasPrefix("data: ") }.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any])
        }
    }

    @Test func availableListsSizeAndLicenceBesideTheInstalledModels() async throws {
        try await withServer { client in
            let response = try await client.execute(uri: "/v1/models/available", method: .get, headers: Self.authorised)
            #expect(response.status == .ok)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            let data = try #require(json?["data"] as? [[String: Any]])
            #expect(data.count == 2)
            #expect(data[0]["reference"] as? String == "tiny:voice" && data[0]["bytes"] as? Int == 1000)
            #expect(data[0]["licence"] as? String == "MIT" && data[0]["installed"] as? Bool == true)
            #expect(data[1]["gated"] as? Bool == true && data[1]["bytes"] == nil)
            // The model routes with an id still answer as before.
            #expect(try await client.execute(uri: "/v1/models/nothing", method: .get, headers: Self.authorised).status == .notFound)
        }
    }

    @Test func aPullStreamsProgressByWholePerCentThenDone() async throws {
        let library = SteppingModelLibrary()
        try await withServer(library: library) { client in
            let response = try await client.execute(uri: "/v1/models/pull", method: .post, headers: Self.authorised,
                                                    body: ByteBuffer(string: #"{"model": " big "}"#))
            #expect(response.status == .ok && response.headers[.contentType] == "text/event-stream")
            let events = try Self.events(response)
            let progress = events.filter { $0["type"] as? String == "model.pull.progress" }
            // 1,000 reports become one per whole per cent (and per file end): about a hundred, not a thousand.
            #expect(progress.count >= 100 && progress.count <= 104, "\(progress.count) progress events")
            #expect(progress.last?["bytes"] as? Int == 1000 && progress.last?["total"] as? Int == 1000)
            #expect(progress.contains { $0["file"] as? String == "a.onnx" } && progress.last?["file"] as? String == "b.json")
            let done = try #require(events.last)
            #expect(done["type"] as? String == "model.pull.done" && done["id"] as? String == "big-model")
            #expect(done["already_installed"] as? Bool == false && done["model"] as? String == "big")
        }
        #expect(library.ids.contains("big-model"))
    }

    @Test func aFailedPullEndsWithAnErrorEvent() async throws {
        try await withServer { client in
            let response = try await client.execute(uri: "/v1/models/pull", method: .post, headers: Self.authorised,
                                                    body: ByteBuffer(string: #"{"model": "joe"}"#))
            let events = try Self.events(response)
            let error = try #require(events.last?["error"] as? [String: Any])
            #expect((error["message"] as? String)?.contains("'joe' is not a model warble can pull") == true)
        }
    }

    @Test(arguments: [
        (#"{"model": ""}"#, "model is empty"),
        (#"{"model": "a\nb"}"#, "one line"),
        (#"{"name": "big"}"#, "missing field 'model'"),
        ("not json", "is not a pull request"),
    ])
    func badPullBodiesAre400(body: String, message: String) async throws {
        try await withServer { client in
            let response = try await client.execute(uri: "/v1/models/pull", method: .post, headers: Self.authorised,
                                                    body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            #expect(text(response).contains(message), "\(text(response))")
        }
    }

    @Test func deleteRemovesRefusesTheDefaultAndAnUnknownModelIs404() async throws {
        let library = SteppingModelLibrary()
        try await withServer(library: library) { client in
            let deleted = try await client.execute(uri: "/v1/models/tiny-voice", method: .delete, headers: Self.authorised)
            #expect(deleted.status == .ok && text(deleted).contains("\"deleted\":true"))
            let again = try await client.execute(uri: "/v1/models/tiny-voice", method: .delete, headers: Self.authorised)
            #expect(again.status == .notFound && text(again).contains("no model 'tiny-voice'"))
            let refused = try await client.execute(uri: "/v1/models/default-voice", method: .delete, headers: Self.authorised)
            #expect(refused.status == .conflict && text(refused).contains("a default model"))
        }
        #expect(library.ids == ["default-voice"])
    }

    @Test func pullAndDeleteNeedTheAPIKey() async throws {
        let library = SteppingModelLibrary()
        try await withServer(library: library) { client in
            let pull = try await client.execute(uri: "/v1/models/pull", method: .post, body: ByteBuffer(string: #"{"model": "big"}"#))
            #expect(pull.status == .unauthorized)
            #expect(try await client.execute(uri: "/v1/models/tiny-voice", method: .delete).status == .unauthorized)
        }
        // A server without a key refuses to change the models at all; the listing stays open.
        try await withServer(apiKey: nil, library: library) { client in
            let pull = try await client.execute(uri: "/v1/models/pull", method: .post, body: ByteBuffer(string: #"{"model": "big"}"#))
            #expect(pull.status == .forbidden && text(pull).contains("--api-key"))
            #expect(try await client.execute(uri: "/v1/models/tiny-voice", method: .delete).status == .forbidden)
            #expect(try await client.execute(uri: "/v1/models/available", method: .get).status == .ok)
        }
        #expect(library.ids == ["tiny-voice", "default-voice"])
    }

    @Test func aServerWithoutALibraryIs501() async throws {
        try await withServer(library: nil) { client in
            let response = try await client.execute(uri: "/v1/models/available", method: .get, headers: Self.authorised)
            #expect(response.status == .notImplemented && text(response).contains("does not pull or remove models"))
        }
    }

    @Test func aSecondPullOfTheSameModelWhileTheFirstRunsIs409() async throws {
        let library = GatedModelLibrary()
        try await withServer(library: library) { client in
            let first = Task {
                try await client.execute(uri: "/v1/models/pull", method: .post, headers: Self.authorised,
                                         body: ByteBuffer(string: #"{"model": "slow"}"#))
            }
            for await _ in library.started { break }
            let second = try await client.execute(uri: "/v1/models/pull", method: .post, headers: Self.authorised,
                                                  body: ByteBuffer(string: #"{"model": "slow"}"#))
            #expect(second.status == .conflict && text(second).contains("pull_in_progress"), "\(text(second))")
            library.release()
            let done = try await first.value
            #expect(try Self.events(done).last?["type"] as? String == "model.pull.done")
            // Once it ended, the model can be pulled again.
            let third = Task {
                try await client.execute(uri: "/v1/models/pull", method: .post, headers: Self.authorised,
                                         body: ByteBuffer(string: #"{"model": "slow"}"#))
            }
            #expect(try await third.value.status == .ok)
        }
    }

    @Test(arguments: ["..", ".hidden", "a%2F..%2F..", "a%5Cb", "x%00y", String(repeating: "m", count: 129)])
    func idsThatAreNotPlainNamesAre400(id: String) async throws {
        let library = SteppingModelLibrary()
        try await withServer(library: library) { client in
            let response = try await client.execute(uri: "/v1/models/\(id)", method: .delete, headers: Self.authorised)
            #expect(response.status == .badRequest || response.status == .notFound, "\(response.status) \(text(response))")
            #expect(text(response).contains("\"error\""))
        }
        #expect(library.ids == ["tiny-voice", "default-voice"])
    }
}
