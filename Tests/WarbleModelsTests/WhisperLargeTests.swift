import WarbleSpeech
import Foundation
import Testing
import WarbleAudio
@testable import WarbleModels
import WarbleTestSupport

/// Whisper large-v3 and large-v3-turbo as the Hub publishes them (vocabulary.json, preprocessor_config.json
/// with 128 mel bins, large-v3's special ids one above the older multilingual models', the turbo's 4-layer
/// decoder), proven on random miniatures made with ctranslate2's own converter
/// (tools/whisper/random_large.py, in Tests/Fixtures/generated/whisper/large): the converted models
/// decode token for token as faster-whisper 1.2.1 does, greedy and beam 5, with and without timestamps,
/// the language given or detected. Tolerance: none (identical ids and text).
@Suite("Whisper large-v3 and turbo parity with faster-whisper (random miniatures)", .needs(fixtures: "whisper"), .needsRuntime,
       .serialized)
struct WhisperLargeTests {
    static let directory = WhisperFixtures.whisperDirectory.appendingPathComponent("large")
    static let models = ["whisper-large-v3", "whisper-large-v3-turbo"]
    static let clips = ["en_fox", "de_wetter"]
    static let cases = ["greedy", "greedy_timestamps", "beam5", "beam5_timestamps"]

    private static let loaded = Result {
        try Dictionary(uniqueKeysWithValues: models.map {
            ($0, try WhisperModel(directory: directory.appendingPathComponent("onnx/\($0)"), threads: 1))
        })
    }

    static func model(_ id: String) throws -> WhisperModel {
        guard let model = try loaded.get()[id] else { throw WhisperFixtures.Missing(what: "model \(id)") }
        return model
    }

    @Test func configurationComesFromTheFiles() throws {
        for id in Self.models {
            let c = try Self.model(id).configuration
            #expect(c.melCount == 128, "\(id): n_mels from the first convolution and preprocessor_config.json")
            #expect(c.vocabularySize == 51866 && c.multilingual)
            #expect(c.specialTokens.sot == 50258 && c.specialTokens.translate == 50359 && c.specialTokens.transcribe == 50360)
            #expect(c.specialTokens.noSpeech == 50363 && c.specialTokens.noTimestamps == 50364 && c.specialTokens.timestampBegin == 50365)
            #expect(c.languageCodes.count == 100 && c.languageCodes.last == "yue")
            #expect(WhisperTokens(configuration: c).languageToken("yue") == 50358)
        }
        #expect(try Self.model("whisper-large-v3").configuration.decoderLayers == 2)
        #expect(try Self.model("whisper-large-v3-turbo").configuration.decoderLayers == 4)
    }

    @Test(arguments: clips)
    func logMelMatchesFasterWhisper(clip: String) throws {
        let index = try WhisperFixtures.json(Self.directory)
        guard let entry = index.object("features")?.object("clips")?.object(clip), let file = entry["file"] as? String,
              let shape = entry["shape"] as? [Int], shape.count == 2
        else { throw WhisperFixtures.Missing(what: "features of \(clip)") }
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(file))
        let expected = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }  // [128, frames]
        let audio = try WhisperFixtures.clip(Self.directory, "\(clip).wav")
        let melCount = try Self.model("whisper-large-v3-turbo").configuration.melCount
        let got = WhisperLogMel(melCount: melCount)(try WhisperRecognizer.whisperSamples(audio))
        #expect(shape == [melCount, got.rows] && expected.count == melCount * got.rows)
        var worst: Float = 0
        for t in 0..<got.rows {
            for m in 0..<melCount { worst = max(worst, abs(got.values[t * melCount + m] - expected[m * got.rows + t])) }
        }
        #expect(worst < 1e-4, "max abs error \(worst)")  // tolerance: max abs 1e-4 on the normalised log-mel
    }

    static var arguments: [(String, String, String)] {
        models.flatMap { m in clips.flatMap { c in cases.map { (m, c, $0) } } }
    }

    @Test(arguments: arguments)
    func tokensMatchFasterWhisper(model id: String, clip: String, name: String) async throws {
        let index = try WhisperFixtures.json(Self.directory)
        guard let expected = index.object("models")?.object(id)?.object("clips")?.object(clip)?.object(name),
              let tokens = expected["tokens"] as? [Int], let beam = expected["beam_size"] as? Int,
              let timestamps = expected["timestamps"] as? Bool, let detected = expected["detected"] as? Bool
        else { throw WhisperFixtures.Missing(what: "large fixture \(id)/\(clip)/\(name)") }
        let model = try Self.model(id)
        let audio = try WhisperFixtures.clip(Self.directory, "\(clip).wav")
        let language = expected["language"] as? String
        let options = TranscriptionOptions(language: detected ? nil : language, beamSize: beam, temperatures: [0],
                                           timestamps: timestamps, conditionOnPreviousText: false)
        let segments = try await WhisperRecognizer(model: model).transcribeAll(audio, options: options)
        let got = segments.flatMap(\.tokens)
        #expect(got == tokens, "\(id) \(clip) \(name): got \(got.prefix(20)) expected \(tokens.prefix(20))")
        #expect(segments.first?.language == language)
        #expect(segments.map(\.text).joined().trimmingCharacters(in: .whitespaces) == expected["text"] as? String)
        if let reference = expected["segments"] as? [[String: Any]] {
            #expect(segments.count == reference.count)
            for (segment, golden) in zip(segments, reference) {
                #expect(abs(segment.start - (golden["start"] as? Double ?? -1)) < 1e-3
                        && abs(segment.end - (golden["end"] as? Double ?? -1)) < 1e-3, "\(id) \(clip) \(name) segment times")
            }
        }
    }
}
