import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WarbleEngine
@testable import WarbleServer

/// The transcription route with the real whisper-tiny.en (`WhisperBackend` over the installed
/// model) on the clip `tools/server/make_fixtures.py` makes, against faster-whisper's default
/// transcription of it, without and with an initial prompt.
/// Tolerance: tokens and text identical; segment times within 0.01 s.
@Suite(.serialized) struct TranscriptionWhisperTests {
    struct Golden: Decodable {
        struct Segment: Decodable {
            var start: Double
            var end: Double
            var text: String
            var tokens: [Int]
        }
        var model: String
        var prompt: String
        var without: [Segment]
        var with: [Segment]
    }

    static let fixtures: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent("Tests/Fixtures/generated/server")
    }()

    static let backend = WhisperBackend(threads: 2)

    func load() async throws -> (Golden, Data) {
        let json = Self.fixtures.appendingPathComponent("prompt.json"), wav = Self.fixtures.appendingPathComponent("prompt.wav")
        guard let golden = FileManager.default.contents(atPath: json.path), let audio = FileManager.default.contents(atPath: wav.path) else {
            throw Missing(what: "\(json.path) or prompt.wav")
        }
        let models = await Self.backend.recognitionModels().map(\.id)
        guard models.contains("whisper-tiny.en") else { throw Missing(what: "the whisper-tiny.en model (installed: \(models))") }
        return (try JSONDecoder().decode(Golden.self, from: golden), audio)
    }

    struct Missing: Error, CustomStringConvertible {
        let what: String
        var description: String { "\(what) is missing: run scripts/test.sh (it installs the models and makes the fixtures)" }
    }

    func transcribe(_ audio: Data, fields: [(String, String)]) async throws -> TestResponse {
        try await withTranscriptionServer(Self.backend) { client in
            try await client.transcribe(MultipartBody(fields, file: ("prompt.wav", "audio/wav", audio)))
        }
    }

    func expectMatches(_ response: TestResponse, _ golden: [Golden.Segment]) throws {
        #expect(response.status == .ok)
        let body = try object(response)
        let segments = try #require(body["segments"] as? [[String: Any]])
        #expect(segments.count == golden.count)
        for (segment, expected) in zip(segments, golden) {
            #expect(segment["tokens"] as? [Int] == expected.tokens)
            #expect(segment["text"] as? String == expected.text)
            #expect(abs((segment["start"] as? Double ?? -1) - expected.start) < 0.01)
            #expect(abs((segment["end"] as? Double ?? -1) - expected.end) < 0.01)
        }
        #expect(body["text"] as? String == golden.map(\.text).joined().trimmingCharacters(in: .whitespaces))
        #expect(body["language"] as? String == "english")
    }

    @Test func verboseJSONMatchesFasterWhisper() async throws {
        let (golden, audio) = try await load()
        let response = try await transcribe(audio, fields: [("model", "whisper-1"), ("response_format", "verbose_json")])
        try expectMatches(response, golden.without)
    }

    @Test func everyInstalledLanguageHasAName() async throws {
        let models = await Self.backend.recognitionModels()
        let languages = Set(models.flatMap(\.languages))
        #expect(languages.count >= 99, "install whisper-base (scripts/test.sh): \(models.map(\.id))")
        #expect(languages.subtracting(LanguageNames.names.keys).isEmpty)
    }

    @Test func initialPromptMatchesFasterWhisper() async throws {
        let (golden, audio) = try await load()
        // The prompt changes faster-whisper's tokens (make_fixtures.py checks), so ignoring it fails here.
        #expect(golden.with.map(\.tokens) != golden.without.map(\.tokens))
        let response = try await transcribe(audio, fields: [
            ("model", golden.model), ("prompt", golden.prompt), ("response_format", "verbose_json"),
        ])
        try expectMatches(response, golden.with)
    }
}
