import Foundation
import Testing
import WarbleAudio
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// SenseVoice on tools/sensevoice's synthetic graphs (sherpa-onnx's export: names, dtypes, dynamic axes,
/// metadata, tokens.txt) against tools/sensevoice/make_fixtures.py's goldens: the front end against
/// kaldi-native-fbank + LFR + CMVN, and what sherpa-onnx 2.0.1 decodes from the same files and clips (16 kHz,
/// 44.1 kHz, 75 s; f32 and int8 graphs; language auto, en, zh).
@Suite(.needs(fixtures: "sensevoice"), .needsRuntime, .serialized) struct SenseVoiceTests {
    static let root = TestNeeds.generatedDirectory.appendingPathComponent("sensevoice")

    struct Case: Decodable {
        let clip: String
        let model: String
        let language: String
        let text: String
        let ids: [Int]
        let timestamps: [Double]
        let lang: String
        let emotion: String
        let event: String
    }

    struct Goldens: Decodable {
        let cases: [Case]
    }

    struct Features: Decodable {
        let rows: Int
        let columns: Int
        let values: [Float]
    }

    static func load<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(contentsOf: root.appendingPathComponent(path)))
    }

    static func model(_ file: String) throws -> SenseVoiceModel {
        try SenseVoiceModel(directory: root.appendingPathComponent("repo"),
                            configuration: SenseVoiceConfiguration(files: [file: file, "tokens.txt": "tokens.txt"]))
    }

    /// Tolerance: 2e-4 after CMVN (measured 4.1e-5: kaldi-native-fbank and Warble's fbank sum the power spectrum in
    /// float32 in different orders; log energies of 32768-scaled samples are about 10–25).
    @Test func frontEndMatchesKaldiNativeFbank() throws {
        let golden = try Self.load(Features.self, "goldens/features.json")
        let model = try Self.model("model.onnx")
        let clip = try SoundFile.read(contentsOf: Self.root.appendingPathComponent("clips/short16k.wav"))
        let features = model.frontEnd(clip.samples)
        #expect(features.rows == golden.rows && features.columns == golden.columns)
        let worst = zip(features.values, golden.values).map { abs($0 - $1) }.max() ?? .infinity
        print("SenseVoice front end: max |Δ| \(worst) against kaldi-native-fbank + LFR + CMVN")
        #expect(worst < 2e-4, "max |Δ| \(worst)")
    }

    @Test func metadataIsRead() throws {
        let model = try Self.model("model.onnx")
        #expect(model.metadata.lfrWindow == 7 && model.metadata.lfrShift == 6 && !model.metadata.normalizeSamples)
        #expect(model.metadata.languages == ["auto": 0, "zh": 3, "en": 4, "yue": 7, "ja": 11, "ko": 12])
        #expect(model.metadata.withITN == 14 && model.metadata.withoutITN == 15 && model.metadata.melCount == 80)
        #expect(throws: ModelError.self) { try model.languagePrompt("de") }
    }

    /// Token ids, text and tags exactly sherpa-onnx's; token times within one frame (60 ms).
    @Test(arguments: ["model.onnx", "model.int8.onnx"]) func decodesAsSherpaOnnx(file: String) async throws {
        let cases = try Self.load(Goldens.self, "goldens/decode.json").cases
        let model = try Self.model(file)
        let recognizer = SenseVoiceRecognizer(model: model)
        var checked = 0
        for golden in cases where golden.model == file {
            let clip = try SoundFile.read(contentsOf: Self.root.appendingPathComponent("clips/\(golden.clip)"))
            let options = TranscriptionOptions(language: golden.language == "auto" ? nil : golden.language)
            var segments: [TranscriptSegment] = []
            for try await segment in recognizer.transcribe(clip, options: options) { segments.append(segment) }
            let label = "\(golden.clip) \(file) \(golden.language)"
            try #require(segments.count == 1, "\(label)")
            let segment = segments[0]
            #expect(segment.tokens == golden.ids, "\(label)")
            #expect(segment.text == golden.text, "\(label)")
            #expect(segment.tags == ["language": SenseVoiceResult.name(ofTag: golden.lang),
                                     "emotion": SenseVoiceResult.name(ofTag: golden.emotion),
                                     "event": SenseVoiceResult.name(ofTag: golden.event)], "\(label)")
            let result = try model.decode(SenseVoiceFrontEnd.samples(clip),
                                          language: try model.languagePrompt(options.language))
            #expect(result.times.count == golden.timestamps.count, "\(label)")
            let worst = zip(result.times, golden.timestamps).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 0.0601, "\(label): token times differ by up to \(worst) s")
            checked += 1
        }
        #expect(checked == 9)
    }

    @Test func wordsFollowTheTokens() throws {
        let model = try Self.model("model.onnx")
        let clip = try SoundFile.read(contentsOf: Self.root.appendingPathComponent("clips/short16k.wav"))
        let result = try model.decode(clip.samples, language: 0)
        let segment = model.segment(result, start: 0, end: clip.duration, options: .init())
        let words = try #require(segment.words)
        #expect(words.map(\.word).joined().drop { $0 == " " } == Substring(segment.text))
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.end == $1.start && $0.start < $0.end })
    }

    @Test func refusesTranslationAndSilenceIsEmpty() async throws {
        let recognizer = SenseVoiceRecognizer(model: try Self.model("model.onnx"))
        let audio = AudioBuffer(mono: [Float](repeating: 0, count: 16000), sampleRate: 16000)
        await #expect(throws: ModelError.self) {
            for try await _ in recognizer.transcribe(audio, options: TranscriptionOptions(task: .translate)) {}
        }
        let short = AudioBuffer(mono: [Float](repeating: 0, count: 100), sampleRate: 16000)
        var segments: [TranscriptSegment] = []
        for try await segment in recognizer.transcribe(short, options: .init()) { segments.append(segment) }
        #expect(segments.count == 1 && segments[0].text.isEmpty)
    }
}
