import WarbleSpeech
import Foundation
import Testing
import WarbleAudio
@testable import WarbleModels
import WarbleTestSupport

/// The int8 variants (`whisper-tiny.en-int8`, `whisper-base-int8`: ONNX Runtime dynamic quantisation of
/// the MatMul weights, tools/whisper/quantize_int8.py) run through the unchanged Swift pipeline.
/// Quantisation changes some words, so these are accuracy bounds, not token parity:
/// - greedy on the fixture clips: word error rate against faster-whisper's f32 transcript at most 15 %
///   over each model's clips (measured: tiny.en 6.8 %, base 8.1 % with de_wetter), and against the
///   spoken sentences at most 5 points above the f32 model's own rate (measured: int8 2 and 5 points below);
/// - default options (beam 5, fallback) on the 3-minute clip: at most 5 % against faster-whisper f32
///   (measured 3.0 %).
@Suite("Whisper int8 variants: accuracy against f32", .needs(model: "whisper-tiny.en-int8"), .needs(model: "whisper-base-int8"),
       .needsRuntime, .serialized)
struct WhisperInt8Tests {
    static let transcriptBound = 0.15
    static let spokenMargin = 0.05
    static let longBound = 0.05

    private static let tiny = Result { try load("whisper-tiny.en-int8") }
    private static let base = Result { try load("whisper-base-int8") }

    static func load(_ id: String) throws -> WhisperModel {
        let directory = WhisperFixtures.modelsDirectory.appendingPathComponent(id)
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.json").path) else {
            throw Missing(id: id, directory: directory.path)
        }
        return try WhisperModel(directory: directory, threads: 1)
    }

    struct Missing: Error, CustomStringConvertible {
        let id: String
        let directory: String
        var description: String {
            "\(directory) is missing: install it with tools/whisper/install.sh \(id) (or scripts/models/whisper.sh)"
        }
    }

    static func model(_ id: String) throws -> WhisperModel {
        try (id == "whisper-tiny.en-int8" ? tiny : base).get()
    }

    @Test func manifestsSayInt8() throws {
        for id in ["whisper-tiny.en-int8", "whisper-base-int8"] {
            let model = try Self.model(id)
            let url = WhisperFixtures.modelsDirectory.appendingPathComponent("\(id)/manifest.json")
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
            #expect(model.id == id)
            #expect(manifest?["quantization"] as? String == "int8-dynamic")
            #expect(manifest?["licence"] as? String == "MIT")
            #expect((manifest?["derivedFrom"] as? [String: Any])?["id"] as? String == String(id.dropLast(5)))
        }
    }

    @Test(.needs(fixtures: "whisper"),
          arguments: [("whisper-tiny.en-int8", ["en_fox", "en_weather", "en_numbers"]),
                      ("whisper-base-int8", ["en_fox", "en_weather", "en_numbers", "de_wetter"])])
    func greedyWordErrorRate(model id: String, clips: [String]) async throws {
        let index = try WhisperFixtures.whisperIndex()
        let f32 = String(id.dropLast(5))
        let spoken = Dictionary(uniqueKeysWithValues: ((index["clips"] as? [[String: Any]]) ?? []).compactMap { clip in
            (clip["name"] as? String).flatMap { name in (clip["spoken_text"] as? String).map { (name, $0) } }
        })
        let model = try Self.model(id)
        var words = 0, errors = 0.0, spokenWords = 0, spokenErrors = 0.0, f32SpokenErrors = 0.0
        for clip in clips {
            guard let expected = index.object("models")?.object(f32)?.object("clips")?.object(clip)?.object("greedy"),
                  let reference = expected["text"] as? String, let said = spoken[clip]
            else { throw WhisperFixtures.Missing(what: "greedy fixture \(f32)/\(clip)") }
            let audio = try WhisperFixtures.clip(WhisperFixtures.whisperDirectory, "\(clip).wav")
            let language = model.configuration.multilingual ? expected["language"] as? String : nil
            let segments = try await WhisperRecognizer(model: model)
                .transcribeAll(audio, options: WhisperFixtures.greedyOptions(language))
            let text = segments.map(\.text).joined().trimmingCharacters(in: .whitespaces)
            let n = WordErrorRate.words(reference).count, m = WordErrorRate.words(said).count
            let rate = WordErrorRate.between(reference: reference, hypothesis: text)
            print("int8 \(id) \(clip): WER \(String(format: "%.3f", rate)) vs f32 \(text.debugDescription)")
            words += n
            errors += rate * Double(n)
            spokenWords += m
            spokenErrors += WordErrorRate.between(reference: said, hypothesis: text) * Double(m)
            f32SpokenErrors += WordErrorRate.between(reference: said, hypothesis: reference) * Double(m)
        }
        let rate = errors / Double(words)
        let spokenRate = spokenErrors / Double(spokenWords), f32SpokenRate = f32SpokenErrors / Double(spokenWords)
        print("int8 \(id): WER \(String(format: "%.3f", rate)) vs f32 over \(words) words; vs spoken "
              + "\(String(format: "%.3f", spokenRate)) (f32 \(String(format: "%.3f", f32SpokenRate)))")
        #expect(rate <= Self.transcriptBound, "\(id): WER \(rate) against the f32 transcripts")
        #expect(spokenRate <= f32SpokenRate + Self.spokenMargin,
                "\(id): WER \(spokenRate) against the spoken text, f32 \(f32SpokenRate)")
    }

    /// The benchmark's 3-minute clip with `warble transcribe`'s defaults.
    @Test(.needs(fixtures: "asr")) func longClipDefaults() async throws {
        guard let expected = try WhisperLongFormTests.entry("whisper-tiny.en", "long").object("default"),
              let reference = expected["text"] as? String
        else { throw WhisperFixtures.Missing(what: "default whisper-tiny.en/long") }
        let audio = try WhisperFixtures.clip(WhisperFixtures.asrDirectory, "long.wav")
        let got = try await WhisperRecognizer(model: try Self.model("whisper-tiny.en-int8"))
            .transcribeAll(audio, options: TranscriptionOptions(language: "en"))
        let text = got.map(\.text).joined().trimmingCharacters(in: .whitespaces)
        let rate = WordErrorRate.between(reference: reference, hypothesis: text)
        print("int8 whisper-tiny.en-int8 long: WER \(String(format: "%.4f", rate)) vs faster-whisper f32 "
              + "(\(WordErrorRate.words(reference).count) words)")
        #expect(rate <= Self.longBound, "WER \(rate)\nint8: \(text)\nf32:  \(reference)")
    }
}
