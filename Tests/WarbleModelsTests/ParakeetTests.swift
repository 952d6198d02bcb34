import Foundation
import Testing
import WarbleAudio
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// Parakeet TDT on tools/parakeet's synthetic graphs (sherpa-onnx's NeMo export: names, dtypes, dynamic axes, the
/// encoder's metadata, tokens.txt, the int8 files) against tools/parakeet/make_fixtures.py's goldens: the front end
/// against kaldi-native-fbank + per-feature normalisation, and what sherpa-onnx 2.0.1 decodes from the same files and
/// clips (16 kHz, 44.1 kHz, 75 s; f32 and int8).
@Suite(.needs(fixtures: "parakeet"), .needsRuntime, .serialized) struct ParakeetTests {
    static let root = TestNeeds.generatedDirectory.appendingPathComponent("parakeet")

    struct Case: Decodable {
        let clip: String
        let model: String
        let text: String
        let ids: [Int]
        /// int8, 16 kHz: the maker's TDT search over ONNX Runtime 1.31.1 with exact int8 kernels.
        let exact_ids: [Int]?
        let timestamps: [Double]
        let durations: [Double]
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

    static func model(_ variant: String) throws -> ParakeetModel {
        let suffix = variant == "int8" ? ".int8" : ""
        var files = ["tokens.txt": "tokens.txt"]
        for part in ["encoder", "decoder", "joiner"] { files["\(part)\(suffix).onnx"] = "\(part)\(suffix).onnx" }
        return try ParakeetModel(directory: root.appendingPathComponent(variant == "int8" ? "repo-int8" : "repo"),
                                 configuration: ParakeetConfiguration(files: files))
    }

    /// Tolerance: 3e-4 after the per-feature normalisation (measured 6.8e-5: kaldi-native-fbank and Warble's fbank sum
    /// the power spectrum in float32 in different orders, and the mean and deviation are summed in float there, in
    /// double here; the normalised features have unit deviation).
    @Test func frontEndMatchesKaldiNativeFbank() throws {
        let golden = try Self.load(Features.self, "goldens/features.json")
        let model = try Self.model("f32")
        let clip = try SoundFile.read(contentsOf: Self.root.appendingPathComponent("clips/short16k.wav"))
        let features = model.frontEnd(clip.samples)
        #expect(features.rows == golden.rows && features.columns == golden.columns)
        let worst = zip(features.values, golden.values).map { abs($0 - $1) }.max() ?? .infinity
        print("Parakeet front end: max |Δ| \(worst) against kaldi-native-fbank + per-feature normalisation")
        #expect(worst < 3e-4, "max |Δ| \(worst)")
    }

    @Test func metadataIsRead() throws {
        let model = try Self.model("int8")
        #expect(model.metadata.isTDT && model.metadata.normalizeType == "per_feature")
        #expect(model.metadata.featureCount == 128 && model.metadata.subsamplingFactor == 8 && model.metadata.predictionLayers == 2)
        #expect(model.metadata.vocabularySize == model.tokens.count && model.tokens[model.metadata.blank] == "<blk>")
        #expect(model.durationCount == 5 && model.metadata.frameSeconds == 0.08)
    }

    /// Token ids and text exactly sherpa-onnx's; each token on sherpa-onnx's frame with its duration (its timestamps
    /// and durations are frames × 0.08 s in float32, compared here to 1e-5 s).
    @Test(arguments: ["f32", "int8"]) func decodesAsSherpaOnnx(variant: String) async throws {
        let cases = try Self.load(Goldens.self, "goldens/decode.json").cases
        let model = try Self.model(variant)
        let recognizer = ParakeetRecognizer(model: model)
        var checked = 0
        for golden in cases where golden.model == variant {
            let clip = try SoundFile.read(contentsOf: Self.root.appendingPathComponent("clips/\(golden.clip)"))
            var segments: [TranscriptSegment] = []
            for try await segment in recognizer.transcribe(clip, options: .init()) { segments.append(segment) }
            let label = "\(golden.clip) \(variant)"
            try #require(segments.count == 1, "\(label)")
            if let exact = golden.exact_ids, segments[0].tokens != golden.ids {
                // sherpa-onnx's ONNX Runtime saturates int8 products on an x86-64 CPU without VNNI (Warble asks for
                // exact kernels; tools/parakeet/check_cli.py): then held to the same search over exact kernels within
                // 1 % of its tokens (the maker's numpy front end and Warble's part by an edit on the 75-s clip).
                let edits = WordErrorRate.errors(reference: exact.map(String.init), hypothesis: segments[0].tokens.map(String.init))
                #expect(edits <= max(1, exact.count / 100), "\(label): \(edits) edits from the exact-kernel search's \(exact.count) tokens")
                #expect(segments[0].text == ParakeetText.text(segments[0].tokens, table: model.tokens), "\(label)")
                checked += 1
                continue
            }
            #expect(segments[0].tokens == golden.ids, "\(label)")
            #expect(segments[0].text == golden.text, "\(label)")
            let search = try model.decode(ParakeetFrontEnd.samples(clip))
            let times = model.times(search), durations = search.durations.map { Double($0) * model.metadata.frameSeconds }
            #expect(times.count == golden.timestamps.count && durations.count == golden.durations.count, "\(label)")
            let worst = zip(times + durations, golden.timestamps + golden.durations).map { abs($0 - $1) }.max() ?? 0
            #expect(worst < 1e-5, "\(label): token times or durations differ by up to \(worst) s")
            checked += 1
        }
        #expect(checked == 3)
    }

    @Test func wordsFollowTheTokens() throws {
        let model = try Self.model("f32")
        let clip = try SoundFile.read(contentsOf: Self.root.appendingPathComponent("clips/short16k.wav"))
        let search = try model.decode(clip.samples)
        let segment = model.segment(search, start: 0, end: clip.duration, options: .init())
        let words = try #require(segment.words)
        #expect(!words.isEmpty && words.map(\.word).joined().drop { $0 == " " } == Substring(segment.text))
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.start <= $1.start } && words.allSatisfy { $0.start < $0.end })
    }

    /// sherpa-onnx's joining: "▁" is a space, a space before punctuation or between CJK characters goes, one leading
    /// space goes.
    @Test func textJoinsAsSherpaOnnx() {
        let table = TokenTable(symbols: ["<unk>", "▁", "▁Hello", ",", "▁world", "▁?", "你", "▁好", "<blk>"])
        #expect(ParakeetText.text([1, 2, 3, 4, 5], table: table) == " Hello, world?")
        #expect(ParakeetText.text([2, 1, 3, 6, 7], table: table) == "Hello,你好")
        #expect(ParakeetText.text([], table: table).isEmpty)
    }

    @Test func refusesTranslationAndSilenceIsEmpty() async throws {
        let recognizer = ParakeetRecognizer(model: try Self.model("f32"))
        let audio = AudioBuffer(mono: [Float](repeating: 0, count: 16000), sampleRate: 16000)
        await #expect(throws: ModelError.self) {
            for try await _ in recognizer.transcribe(audio, options: TranscriptionOptions(task: .translate)) {}
        }
        let short = AudioBuffer(mono: [Float](repeating: 0, count: 40), sampleRate: 16000)
        var segments: [TranscriptSegment] = []
        for try await segment in recognizer.transcribe(short, options: .init()) { segments.append(segment) }
        #expect(segments.count == 1 && segments[0].text.isEmpty)
    }

    @Test func refusesMismatchedTokens() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parakeet-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["encoder.onnx", "encoder.weights", "decoder.onnx", "joiner.onnx"] {
            try FileManager.default.copyItem(at: Self.root.appendingPathComponent("repo/\(name)"), to: folder.appendingPathComponent(name))
        }
        try "<unk> 0\n▁a 1\n<blk> 2\n".write(to: folder.appendingPathComponent("tokens.txt"), atomically: true, encoding: .utf8)
        #expect(throws: ModelError.self) { try ParakeetModel(directory: folder) }
    }
}
