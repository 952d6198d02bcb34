import WarbleSpeech
import Foundation
import Testing
import WarbleAudio
import WarbleEngine
@testable import WarbleServer
import WarbleTestSupport

/// The engine's transcription service, as `warble serve` hands it to the server, with the real
/// whisper-tiny.en on the clip `tools/server/make_fixtures.py` makes, against faster-whisper's
/// default transcription of it, without and with an initial prompt (the server's routes map a form
/// to these options; Tests/WarbleServerTests checks that mapping on a fake).
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

    static let backend = Engine(phonemizer: nil, configuration: .init(threads: 2))

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

    /// The segments the service gives for `audio` (a WAV file) with the options the route makes by default.
    func transcribe(_ audio: Data, prompt: String? = nil) async throws -> [TranscriptSegment] {
        let buffer = try SoundFile.load(data: audio).buffer
        let options = TranscriptionOptions(language: nil, initialPrompt: prompt)
        var segments: [TranscriptSegment] = []
        for try await segment in Self.backend.transcribe(buffer, model: "whisper-tiny.en", options: options) {
            segments.append(segment)
        }
        return segments
    }

    func expectMatches(_ segments: [TranscriptSegment], _ golden: [Golden.Segment]) throws {
        #expect(segments.count == golden.count)
        for (segment, expected) in zip(segments, golden) {
            #expect(segment.tokens == expected.tokens)
            #expect(segment.text == expected.text)
            #expect(abs(segment.start - expected.start) < 0.01)
            #expect(abs(segment.end - expected.end) < 0.01)
        }
        #expect(TranscriptRendering.text(segments) == golden.map(\.text).joined().trimmingCharacters(in: .whitespaces))
        #expect(segments.first?.language == "en")
    }

    @Test(.needs(fixtures: "server"), .needs(model: "whisper-tiny.en"), .needsRuntime) func transcriptMatchesFasterWhisper() async throws {
        let (golden, audio) = try await load()
        #expect(golden.model == "whisper-tiny.en")
        try expectMatches(try await transcribe(audio), golden.without)
    }

    @Test(.needs(model: "whisper-base")) func everyInstalledLanguageHasAName() async throws {
        let models = await Self.backend.recognitionModels()
        let languages = Set(models.flatMap(\.languages))
        #expect(languages.count >= 99, "install whisper-base (scripts/test.sh): \(models.map(\.id))")
        #expect(languages.subtracting(LanguageNames.names.keys).isEmpty)
    }

    @Test(.needs(fixtures: "server"), .needs(model: "whisper-tiny.en"), .needsRuntime) func initialPromptMatchesFasterWhisper() async throws {
        let (golden, audio) = try await load()
        // The prompt changes faster-whisper's tokens (make_fixtures.py checks), so ignoring it fails here.
        #expect(golden.with.map(\.tokens) != golden.without.map(\.tokens))
        try expectMatches(try await transcribe(audio, prompt: golden.prompt), golden.with)
    }
}
