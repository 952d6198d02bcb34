import WarbleSpeech
import Foundation
import Testing
import WarbleAudio
@testable import WarbleModels
import WarbleTestSupport

/// Word timestamps against faster-whisper 1.2.1 with `word_timestamps=True` (greedy, timestamps, no
/// previous-text conditioning; tools/asr/make_fixtures.py `greedy_words`), on the real models.
/// Tolerance: the same tokens, segments and words (text); every word time within 0.021 s (one
/// alignment step, the attention being ~1e-4 apart), the segment times too.
@Suite("Whisper word timestamps against faster-whisper", .serialized)
struct WhisperWordTimestampTests {
    static let tolerance = 0.021

    @Test(.needs(fixtures: "asr"), .needs(model: "whisper-tiny.en"), .needs(model: "whisper-base"), .needsRuntime,
          arguments: [("whisper-tiny.en", "en_fox"), ("whisper-tiny.en", "pauses"), ("whisper-tiny.en", "long"),
                      ("whisper-base", "en_fox"), ("whisper-base", "pauses"), ("whisper-base", "de_wetter")])
    func wordsMatchFasterWhisper(model id: String, clip: String) async throws {
        guard let expected = try WhisperLongFormTests.entry(id, clip).object("greedy_words"),
              let segments = expected["segments"] as? [[String: Any]]
        else { throw WhisperFixtures.Missing(what: "greedy_words \(id)/\(clip)") }
        let model = try WhisperFixtures.model(id)
        let audio = try WhisperFixtures.clip(WhisperFixtures.asrDirectory, "\(clip).wav")
        let options = TranscriptionOptions(language: expected["language"] as? String, beamSize: 1, temperatures: [0],
                                           conditionOnPreviousText: false, wordTimestamps: true)
        let got = try await WhisperRecognizer(model: model).transcribeAll(audio, options: options)
        #expect(got.flatMap(\.tokens) == segments.flatMap { $0["tokens"] as? [Int] ?? [] }, "\(id) \(clip)")
        #expect(got.count == segments.count, "\(id) \(clip): \(got.count) segments, expected \(segments.count)")
        var worst = 0.0, words = 0
        for (ours, theirs) in zip(got, segments) {
            let expectedWords = theirs["words"] as? [[String: Any]] ?? []
            let ourWords = ours.words ?? []
            #expect(ourWords.map(\.word) == expectedWords.map { $0["word"] as? String ?? "" })
            for (word, reference) in zip(ourWords, expectedWords) {
                let start = reference["start"] as? Double ?? -1, end = reference["end"] as? Double ?? -1
                worst = max(worst, abs(word.start - start), abs(word.end - end))
                #expect(abs(word.start - start) < Self.tolerance && abs(word.end - end) < Self.tolerance,
                        "\(id) \(clip) '\(word.word)': \(word.start)–\(word.end), faster-whisper \(start)–\(end)")
                #expect(abs(word.probability - (reference["probability"] as? Double ?? -1)) < 1e-3)
                #expect(word.start <= word.end)
                words += 1
            }
            #expect(abs(ours.start - (theirs["start"] as? Double ?? -1)) < Self.tolerance)
            #expect(abs(ours.end - (theirs["end"] as? Double ?? -1)) < Self.tolerance)
        }
        #expect(words > 10)
        print("word timestamps \(id) \(clip): \(words) words, largest difference \(worst) s")
    }

    /// Without the option no words are computed; the segments are faster-whisper's without words.
    @Test(.needs(fixtures: "asr"), .needs(model: "whisper-tiny.en"), .needsRuntime) func noWordsUnlessAsked() async throws {
        let model = try WhisperFixtures.model("whisper-tiny.en")
        let audio = try WhisperFixtures.clip(WhisperFixtures.asrDirectory, "en_fox.wav")
        let got = try await WhisperRecognizer(model: model).transcribeAll(audio, options: TranscriptionOptions(beamSize: 1, temperatures: [0]))
        #expect(!got.isEmpty && got.allSatisfy { $0.words == nil })
    }

    /// A model whose config names no alignment heads (or whose decoder predates the scores) says how
    /// to get one that can, before decoding anything.
    @Test(.needs(fixtures: "asr"), .needs(model: "whisper-tiny.en"), .needsRuntime) func modelWithoutAlignmentHeadsSaysSo() async throws {
        let source = WhisperFixtures.modelsDirectory.appendingPathComponent("whisper-tiny.en")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("no-heads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["encoder.onnx", "decoder.onnx", "tokenizer.json"] {
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(name),
                                                       withDestinationURL: source.appendingPathComponent(name))
        }
        let manifest = try #require(FileManager.default.contents(atPath: source.appendingPathComponent("manifest.json").path))
        var object = try #require(try JSONSerialization.jsonObject(with: manifest) as? [String: Any])
        var config = try #require(object["config"] as? [String: Any])
        config["alignment_heads"] = [[Int]]()
        object["config"] = config
        try JSONSerialization.data(withJSONObject: object).write(to: dir.appendingPathComponent("manifest.json"))
        let model = try WhisperModel(directory: dir, threads: 1)
        #expect(!model.alignsWords)
        let audio = try WhisperFixtures.clip(WhisperFixtures.asrDirectory, "en_fox.wav")
        await #expect { _ = try await WhisperRecognizer(model: model).transcribeAll(audio, options: TranscriptionOptions(wordTimestamps: true)) }
            throws: { "\($0)".contains("cannot give word timestamps") && "\($0)".contains("warble models pull") }
        // Without word timestamps it transcribes as before.
        #expect(try await !WhisperRecognizer(model: model).transcribeAll(audio, options: TranscriptionOptions(beamSize: 1)).isEmpty)
    }

    /// Languages without spaces: words end wherever the tokens decode to whole characters, so a
    /// character split over two tokens stays in one word and no word holds U+FFFD.
    @Test(.needs(model: "whisper-base"), .needsRuntime) func unspacedLanguagesSplitOnWholeCharacters() throws {
        let model = try WhisperFixtures.model("whisper-base")
        // Expected: faster-whisper's split_to_word_tokens with language "ja" on the same ids.
        let text = "憂鬱な日に薔薇を見た。"
        let eot = model.configuration.specialTokens.eot
        let tokens = model.encode(text)
        #expect(tokens == [29713, 224, 32506, 109, 3203, 6890, 4108, 27746, 242, 27746, 229, 5998, 10470, 3368, 1543])
        let words = model.words(of: tokens + [eot], language: "ja")
        #expect(words.map(\.word) == ["憂", "鬱", "な", "日", "に", "薔", "薇", "を", "見", "た", "。", ""])
        #expect(words.map(\.tokens) == [[29713, 224], [32506, 109], [3203], [6890], [4108], [27746, 242], [27746, 229],
                                         [5998], [10470], [3368], [1543], [eot]])
        // English splits on spaces: a word per spoken word, punctuation apart (merged later).
        let english = model.words(of: model.encode(" Hello there, world.") + [model.configuration.specialTokens.eot], language: "en")
        #expect(english.map(\.word) == [" Hello", " there", ",", " world", ".", ""])
    }

    /// Digital silence: no segment, so no words and no alignment pass.
    @Test(.needs(fixtures: "asr"), .needs(model: "whisper-tiny.en"), .needsRuntime) func silenceHasNoWords() async throws {
        let model = try WhisperFixtures.model("whisper-tiny.en")
        let audio = try WhisperFixtures.clip(WhisperFixtures.asrDirectory, "silence.wav")
        let got = try await WhisperRecognizer(model: model).transcribeAll(audio, options: TranscriptionOptions(wordTimestamps: true))
        #expect(got.isEmpty)
    }
}

/// The alignment's numeric steps on small hand-checked inputs (CTranslate2's definitions).
@Suite struct WhisperAlignmentStepTests {
    @Test func medianFilterMirrorsEdges() {
        // width 3 at the first value reads [x1, x0, x1]; at the last [x(n-2), x(n-1), x(n-2)].
        #expect(WhisperAlignment.medianFiltered([5, 1, 9, 2][...], width: 3) == [1, 5, 2, 9])
        // A row no longer than width / 2 is copied.
        #expect(WhisperAlignment.medianFiltered([3, 1, 2][...], width: 7) == [3, 1, 2])
        // The first window is [8, 0, 4, 0, 8], the second [0, 4, 0, 8, 0] (tools/whisper/word_alignment.py agrees).
        #expect(WhisperAlignment.medianFiltered([4, 0, 8, 0, 4][...], width: 5) == [4, 0, 4, 0, 4])
    }

    @Test func dtwFollowsTheLargestValues() {
        // Row 0 is strongest in columns 0-1, row 1 in columns 2-3. Every cell adds −value to the cost,
        // so a path through one more positive cell is cheaper: the step down at column 1 (as
        // tools/whisper/word_alignment.py's reference of CTranslate2's negative_dtw gives).
        let matrix: [Float] = [9, 9, 1, 1,
                               1, 1, 9, 9]
        let path = WhisperAlignment.negativeDTW(matrix, rows: 2, columns: 4).map { [$0.text, $0.time] }
        #expect(path == [[0, 0], [0, 1], [1, 1], [1, 2], [1, 3]])
        // A row that wins every column keeps the text on it until the last step.
        let first = WhisperAlignment.negativeDTW([5, 5, 5, -5, -5, -5], rows: 2, columns: 3).map { [$0.text, $0.time] }
        #expect(first == [[0, 0], [0, 1], [0, 2], [1, 2]])
        #expect(WhisperAlignment.negativeDTW([], rows: 0, columns: 0).isEmpty)
    }

    @Test func standardisesEachColumnOverRows() {
        var w: [Float] = [1, 5,
                          3, 5]
        WhisperAlignment.standardiseOverRows(&w, heads: 1, rows: 2, columns: 2)
        #expect(w == [-1, 0, 1, 0])  // a constant column becomes 0, not NaN
    }

    @Test func punctuationJoinsItsWord() {
        func timing(_ w: String) -> WhisperWordTimestamps.Timing { .init(word: w, tokens: [1], start: 0, end: 0, probability: 1) }
        var words = [" \"", "Hello", ",", " world", "!", " ("].map(timing)
        WhisperWordTimestamps.mergePunctuations(&words)
        #expect(words.map(\.word) == ["", " \"Hello,", "", " world!", "", " ("])
        #expect(words[1].tokens.count == 3)
    }

    @Test func numpyMedian() {
        #expect(WhisperWordTimestamps.median([0.4, 0.1, 0.3, 0.2]) == 0.25)
        #expect(WhisperWordTimestamps.median([0.5]) == 0.5)
        #expect(WhisperWordTimestamps.median([]) == 0)
    }
}
