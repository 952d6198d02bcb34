import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleServer
import WarbleSpeech

/// A voice library that keeps what it was given (the real one, the engine's, is exercised through
/// `warble serve` in scripts/test-server-e2e.sh).
final class RecordingVoiceLibrary: VoiceLibraryBackend, @unchecked Sendable {
    private let lock = NSLock()
    private var uploads: [VoiceUpload] = []
    private var names: Set<String> = []

    var received: [VoiceUpload] { lock.withLock { uploads } }

    /// What it reports before answering, as a search would.
    static let progress: [VoiceCloneProgress] = [
        .init(stage: .clip, message: "the clip: 4.0 s"),
        .init(stage: .searching, message: "round 1", fraction: 0.5, similarity: 0.55),
    ]

    func addVoice(_ upload: VoiceUpload, progress: @escaping @Sendable (VoiceCloneProgress) -> Void) async throws
        -> VoiceUploadResult {
        try lock.withLock {
            if upload.clip.count < 100 { throw ModelError(.badInput, "\(upload.clipName) cannot be read as audio") }
            uploads.append(upload)
            names.insert(upload.name)
        }
        Self.progress.forEach(progress)
        return VoiceUploadResult(id: upload.name, model: "kokoro-v1.0-int8", similarity: 0.61, startVoice: "kokoro-jm_kumo",
                                 startSimilarity: 0.42, candidates: 90)
    }

    func removeVoice(_ id: String) async throws {
        try lock.withLock {
            guard names.remove(id) != nil else { throw ModelError(.unknownVoice, "the voice library has no voice '\(id)'") }
        }
    }

    func renameVoice(_ id: String, to newName: String) async throws {
        try lock.withLock {
            guard names.contains(id) else { throw ModelError(.unknownVoice, "the voice library has no voice '\(id)'") }
            guard !newName.isEmpty, !names.contains(newName) else { throw ModelError(.badInput, "'\(newName)' is taken or empty") }
            names.remove(id)
            names.insert(newName)
        }
    }

    /// An export is `{"voice": ID}` here: enough to see it travel through export and import.
    func exportVoice(_ id: String) async throws -> Data {
        try lock.withLock {
            guard names.contains(id) else { throw ModelError(.unknownVoice, "the voice library has no voice '\(id)'") }
        }
        return try JSONEncoder().encode(["voice": id])
    }

    func importVoice(_ file: Data, name: String?, replacing: Bool) async throws -> VoiceUploadResult {
        guard let exported = try? JSONDecoder().decode([String: String].self, from: file), let id = exported["voice"] else {
            throw ModelError(.badInput, "the uploaded file is not a Warble voice profile")
        }
        let newID = name ?? id
        try lock.withLock {
            if names.contains(newID), !replacing { throw ModelError(.badInput, "the voice library already has a voice '\(newID)'") }
            names.insert(newID)
        }
        return VoiceUploadResult(id: newID, model: "kokoro-v1.0-int8")
    }
}

struct VoiceRouteTests {
    static let key = "sekret"

    func withServer<Value: Sendable>(apiKey: String? = key, library: RecordingVoiceLibrary,
                                     _ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let server = SpeechServer(backend: FakeSpeechBackend(), voiceLibrary: library,
                                  configuration: ServerConfiguration(apiKey: apiKey))
        return try await Application(router: server.makeRouter()).test { try await body($0) }
    }

    static var authorised: HTTPFields { [.authorization: "Bearer \(key)"] }

    @Test func anUploadIsClonedWithItsFieldsAndAnswered201() async throws {
        let library = RecordingVoiceLibrary()
        let body = MultipartBody([("name", "grandma"), ("model", "kokoro"), ("consent", "she said yes"), ("budget", "90"),
                                  ("seed", "7"), ("transcribe", "true")])
        try await withServer(library: library) { client in
            let response = try await client.transcribe(body, route: "/v1/audio/voices", headers: Self.authorised)
            #expect(response.status == .created)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            #expect(json?["id"] as? String == "grandma" && json?["object"] as? String == "voice")
            #expect(json?["start_voice"] as? String == "kokoro-jm_kumo" && json?["similarity"] as? Double == 0.61)
        }
        let upload = try #require(library.received.first)
        #expect(upload.name == "grandma" && upload.model == "kokoro" && upload.consent == "she said yes")
        #expect(upload.budgetSeconds == 90 && upload.seed == 7 && upload.transcribe && upload.clipName == "clip.wav")
        #expect(upload.clip == testWAV())
    }

    /// With `Accept: text/event-stream` the clone's progress comes as events, then the voice; a failure as an error event.
    @Test func progressStreamsAsEventsThenTheVoice() async throws {
        let library = RecordingVoiceLibrary()
        var streaming = Self.authorised
        streaming[.accept] = "text/event-stream"
        let headers = streaming
        try await withServer(library: library) { client in
            let response = try await client.transcribe(MultipartBody([("name", "grandma"), ("consent", "yes")]), route: "/v1/audio/voices",
                                                       headers: headers)
            #expect(response.status == .ok && response.headers[.contentType] == "text/event-stream")
            let events = try Self.events(response.body)
            #expect(events.map { $0["type"] as? String } == ["voice.progress", "voice.progress", "voice.created"])
            #expect(events[0]["stage"] as? String == "clip" && events[1]["stage"] as? String == "searching")
            #expect(events[1]["fraction"] as? Double == 0.5 && events[1]["similarity"] as? Double == 0.55)
            #expect((events[2]["voice"] as? [String: Any])?["id"] as? String == "grandma")

            let bad = try await client.transcribe(MultipartBody([("name", "x"), ("consent", "yes")], file: ("bad.wav", "audio/wav", Data(count: 10))),
                                                  route: "/v1/audio/voices", headers: headers)
            let failure = try Self.events(bad.body)
            #expect(failure.count == 1 && failure[0]["type"] as? String == "error")
            #expect(((failure[0]["error"] as? [String: Any])?["message"] as? String)?.contains("cannot be read as audio") == true)
        }
        #expect(library.received.map(\.name) == ["grandma"])
    }

    /// The JSON of each `data:` line of a server-sent event stream.
    static func events(_ body: ByteBuffer) throws -> [[String: Any]] {
        try String(buffer: body).split(separator: "\n").filter { $0.hasPrefix("data: ") }.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any])
        }
    }

    /// Rename, export and import: a voice exported, renamed, and imported back under its old name; the mistakes answered.
    @Test func renameExportAndImport() async throws {
        let library = RecordingVoiceLibrary()
        try await withServer(library: library) { client in
            _ = try await client.transcribe(MultipartBody([("name", "grandma"), ("consent", "yes")]), route: "/v1/audio/voices",
                                            headers: Self.authorised)
            var json = Self.authorised
            json[.contentType] = "application/json"
            let renamed = try await client.execute(uri: "/v1/audio/voices/grandma/rename", method: .post, headers: json,
                                                   body: ByteBuffer(string: #"{"name": "nana"}"#))
            #expect(renamed.status == .ok && String(buffer: renamed.body).contains(#""renamed_from":"grandma""#))
            let again = try await client.execute(uri: "/v1/audio/voices/grandma/rename", method: .post, headers: json,
                                                 body: ByteBuffer(string: #"{"name": "x"}"#))
            #expect(again.status == .notFound)
            let notJSON = try await client.execute(uri: "/v1/audio/voices/nana/rename", method: .post, headers: json,
                                                   body: ByteBuffer(string: "nana2"))
            #expect(notJSON.status == .badRequest)

            let exported = try await client.execute(uri: "/v1/audio/voices/nana/export", method: .get, headers: Self.authorised)
            #expect(exported.status == .ok && exported.headers[.contentDisposition] == #"attachment; filename="nana.warble-voice.json""#)
            let file = Data(buffer: exported.body)
            let imported = try await client.transcribe(MultipartBody([("name", "grandma")], file: ("nana.json", "application/json", file)),
                                                       route: "/v1/audio/voices/import", headers: Self.authorised)
            #expect(imported.status == .created && String(buffer: imported.body).contains(#""id":"grandma""#))
            let taken = try await client.transcribe(MultipartBody([], file: ("nana.json", "application/json", file)),
                                                    route: "/v1/audio/voices/import", headers: Self.authorised)
            #expect(taken.status == .badRequest)
            let garbage = try await client.transcribe(MultipartBody([], file: ("x.json", "application/json", Data("{}".utf8))),
                                                      route: "/v1/audio/voices/import", headers: Self.authorised)
            #expect(garbage.status == .badRequest && String(buffer: garbage.body).contains("not a Warble voice profile"))
            let unknown = try await client.execute(uri: "/v1/audio/voices/nobody/export", method: .get, headers: Self.authorised)
            #expect(unknown.status == .notFound)
            let noKey = try await client.execute(uri: "/v1/audio/voices/nana/export", method: .get, headers: [:])
            #expect(noKey.status == .unauthorized)
        }
    }

    @Test func theDefaultsAreTenMinutesAndSeedOne() async throws {
        let library = RecordingVoiceLibrary()
        try await withServer(library: library) { client in
            let response = try await client.transcribe(MultipartBody([("name", "x")]), route: "/v1/audio/voices", headers: Self.authorised)
            #expect(response.status == .created)
        }
        let upload = try #require(library.received.first)
        #expect(upload.budgetSeconds == 600 && upload.seed == 1 && !upload.transcribe && upload.model == nil)
    }

    @Test(arguments: [
        ([("model", "kokoro")], "no 'name' field"),
        ([("name", "x"), ("budget", "0")], "budget '0' is not a number of seconds between 1 and 3600"),
        ([("name", "x"), ("budget", "nan")], "budget 'nan'"),
        ([("name", "x"), ("budget", "7200")], "between 1 and 3600"),
        ([("name", "x"), ("seed", "-1")], "seed '-1' is not a whole number"),
        ([("name", "x"), ("transcribe", "yes")], "transcribe 'yes' is not true or false"),
    ])
    func badFieldsAre400(fields: [(String, String)], message: String) async throws {
        try await withServer(library: RecordingVoiceLibrary()) { client in
            let response = try await client.transcribe(MultipartBody(fields), route: "/v1/audio/voices", headers: Self.authorised)
            #expect(response.status == .badRequest)
            #expect(text(response).contains(message), "\(text(response))")
        }
    }

    @Test func aMissingFileAndAnUnreadableClipAre400() async throws {
        try await withServer(library: RecordingVoiceLibrary()) { client in
            let none = try await client.transcribe(MultipartBody([("name", "x")], file: nil), route: "/v1/audio/voices", headers: Self.authorised)
            #expect(none.status == .badRequest && text(none).contains("no 'file' field"))
            let junk = MultipartBody([("name", "x")], file: ("junk.wav", "audio/wav", Data("not audio".utf8)))
            let bad = try await client.transcribe(junk, route: "/v1/audio/voices", headers: Self.authorised)
            #expect(bad.status == .badRequest && text(bad).contains("junk.wav cannot be read as audio"))
        }
    }

    @Test func deleteRemovesAndAnUnknownVoiceIs404() async throws {
        let library = RecordingVoiceLibrary()
        try await withServer(library: library) { client in
            _ = try await client.transcribe(MultipartBody([("name", "gone")]), route: "/v1/audio/voices", headers: Self.authorised)
            let deleted = try await client.execute(uri: "/v1/audio/voices/gone", method: .delete, headers: Self.authorised)
            #expect(deleted.status == .ok && text(deleted).contains("\"deleted\":true"))
            let again = try await client.execute(uri: "/v1/audio/voices/gone", method: .delete, headers: Self.authorised)
            #expect(again.status == .notFound && text(again).contains("no voice 'gone'"))
        }
    }

    @Test func theRoutesNeedTheAPIKey() async throws {
        let library = RecordingVoiceLibrary()
        try await withServer(library: library) { client in
            let anonymous = try await client.transcribe(MultipartBody([("name", "x")]), route: "/v1/audio/voices")
            #expect(anonymous.status == .unauthorized)
            let delete = try await client.execute(uri: "/v1/audio/voices/x", method: .delete)
            #expect(delete.status == .unauthorized)
        }
        // A server without a key refuses to change the library at all.
        try await withServer(apiKey: nil, library: library) { client in
            let post = try await client.transcribe(MultipartBody([("name", "x")]), route: "/v1/audio/voices")
            #expect(post.status == .forbidden && text(post).contains("--api-key"))
            let delete = try await client.execute(uri: "/v1/audio/voices/x", method: .delete)
            #expect(delete.status == .forbidden)
            // Listing stays open.
            #expect(try await client.execute(uri: "/v1/audio/voices", method: .get).status == .ok)
        }
        #expect(library.received.isEmpty)
    }
}
