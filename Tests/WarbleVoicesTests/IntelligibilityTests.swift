import WarbleSpeech
import Foundation
import ONNXRuntime
import Testing
import WarbleAudio
import WarbleEngine
import WarbleModels
import WarblePhonemes
import WarbleTestSupport

/// Both shipped voices must be understood: fixed sentences spoken through the engine (default
/// settings, the voices' own noise scales, as a user hears them), transcribed by Warble's own
/// whisper-tiny.en (greedy), scored by word error rate against the sentences.
@Suite(.serialized) struct IntelligibilityTests {
    /// Plain sentences: no numbers, abbreviations or spelling variants that a normaliser would have
    /// to reconcile, so every error counted is a word misheard.
    static let sentences = [
        "Have you ever been to Paris in the spring?",
        "Where did you put the keys to the car?",
        "The river flows quietly through the green valley.",
        "Fresh vegetables are sold at the market every Saturday.",
        "The old lighthouse stands at the edge of the cliff.",
        "He opened the window to let in the cool night air.",
        "The children built a tall castle out of sand and shells.",
        "Elizabeth and Jonathan are visiting their grandparents in Boston.",
    ]

    /// Corpus WER bounds over the 76 words. Measured (tiny.en, greedy, 2026-11-23, three runs): Piper
    /// 1.3 %, 2.6 %, 3.9 % (it draws noise, so a word or two changes from run to run: "built" heard as
    /// "build", "lighthouse" as "Y-Tow"); Kokoro 1.3 % each time ("tall" heard as "poor"). Each bound is
    /// the worst run plus about 6 points (4–5 words), so a voice that starts to slur fails.
    static let bounds: [(voice: String, maxWER: Double)] = [
        ("en_US-joe-medium", 0.10),
        ("kokoro-jm_kumo", 0.07),
    ]

    static let whisper = Result {
        try WhisperModel(directory: InstalledVoices.model("whisper-tiny.en").directory, threads: 2)
    }

    @Test func wordErrorRateCountsEditsAfterNormalising() {
        #expect(WordErrorRate.words("Hello, World-wide!  It's") == ["hello", "world", "wide", "it's"])
        #expect(WordErrorRate.errors(reference: ["a", "b", "c"], hypothesis: ["a", "x", "c", "d"]) == 2)
        #expect(WordErrorRate.errors(reference: ["a", "b"], hypothesis: []) == 2)
        #expect(WordErrorRate.rate([("The cat sat.", "the cat sat"), ("a b c d", "a c d")]) == 1.0 / 7)
    }

    @Test(.needs(model: "whisper-tiny.en"), .needs(model: "piper-en_US-joe-medium"), .needs(model: "kokoro-v1.0-int8"), .needsRuntime,
          arguments: bounds)
    func voiceIsUnderstoodByWhisper(voice: String, maxWER: Double) async throws {
        let whisper = try Self.whisper.get()
        let engine = Engine(phonemizer: EspeakPhonemizer(),
                            configuration: .init(threads: 2))
        let recognizer = WhisperRecognizer(model: whisper)
        let options = TranscriptionOptions(language: nil, beamSize: 1, temperatures: [0], timestamps: false,
                                           conditionOnPreviousText: false)
        var pairs: [(reference: String, transcript: String)] = []
        for sentence in Self.sentences {
            let chunks = try await collect(engine.synthesize(SynthesisRequest(text: sentence, voice: voice)))
            let rate = try #require(chunks.first?.sampleRate)
            let audio = AudioBuffer(mono: chunks.flatMap(\.samples), sampleRate: rate)
            let segments = try await recognizer.transcribeAll(audio, options: options)
            let transcript = segments.map(\.text).joined()
            pairs.append((sentence, transcript))
            let errors = WordErrorRate.errors(reference: WordErrorRate.words(sentence),
                                              hypothesis: WordErrorRate.words(transcript))
            if errors > 0 { print("\(voice): \(sentence) -> \(transcript) (\(errors) errors)") }
        }
        let wer = WordErrorRate.rate(pairs)
        print("\(voice): WER \(wer) over \(Self.sentences.count) sentences")
        #expect(wer <= maxWER, "\(voice): word error rate \(wer) (bound \(maxWER)): \(pairs)")
    }
}
