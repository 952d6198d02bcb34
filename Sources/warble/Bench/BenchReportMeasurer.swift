import Foundation
import WarbleAudio
import WarbleBenchReport
import WarbleEngine
import WarblePhonemes

/// Runs one installed model on its fixed input: a warm-up, then `runs` measured runs (medians), each
/// model in an engine of its own, its peak memory the growth of the process's peak resident set
/// during its load and runs.
struct BenchReportMeasurer {
    var runs: Int
    var threads: Int

    func engine(defaultVoice: String = "en_US-joe-medium") -> Engine {
        // No chunk cache: every run really synthesises.
        Engine(phonemizer: EspeakPhonemizer(), configuration: Engine.Configuration(
            defaultVoice: defaultVoice, idleUnloadAfter: nil, cacheBytes: 0, threads: threads))
    }

    /// The paragraph, streamed: time to its first audio, its real-time factor and words per second.
    func tts(voice: String, label: String) async throws -> BenchReportRow {
        try await measuringMemory { engine in
            _ = try await Self.speak(BenchReportInputs.paragraph, voice: voice, engine: engine)
            var results: [(wall: Double, audio: Double, first: Double)] = []
            for _ in 0..<runs { results.append(try await Self.speak(BenchReportInputs.paragraph, voice: voice, engine: engine)) }
            let wall = results.map(\.wall).median ?? 0
            return BenchReportRow(kind: .tts, model: label, engine: "warble",
                                  realTimeFactor: (results.map { $0.audio / $0.wall }.median),
                                  wordsPerSecond: Double(BenchReportInputs.words(BenchReportInputs.paragraph)) / wall,
                                  firstAudioSeconds: results.map(\.first).median)
        }
    }

    /// The ~30 s clip every Whisper model transcribes: the clip text in the default Piper voice.
    func speechClip(voice: String) async throws -> AudioBuffer {
        let engine = engine(defaultVoice: voice)
        var samples: [Float] = []
        var rate = 22_050
        for try await chunk in engine.synthesize(SynthesisRequest(text: BenchReportInputs.speechClipText, voice: voice)) {
            samples += chunk.samples
            rate = chunk.sampleRate
        }
        guard !samples.isEmpty else { throw BenchTTSError("voice \(voice) made no audio for the speech clip") }
        return AudioBuffer(mono: samples, sampleRate: rate)
    }

    /// The clip transcribed: real-time factor, words per second and word error rate against the clip's text.
    func asr(model: String, clip: AudioBuffer) async throws -> BenchReportRow {
        let seconds = Double(clip.frameCount) / Double(clip.sampleRate)
        return try await measuringMemory { engine in
            let options = TranscriptionOptions(language: "en")
            _ = try await Self.transcribe(clip, model: model, options: options, engine: engine)
            var walls: [Double] = []
            var text = ""
            for _ in 0..<runs {
                let start = ContinuousClock.now
                text = try await Self.transcribe(clip, model: model, options: options, engine: engine)
                walls.append((ContinuousClock.now - start).seconds)
            }
            let wall = walls.median ?? 0
            return BenchReportRow(kind: .asr, model: model, engine: "warble", realTimeFactor: seconds / wall,
                                  wordsPerSecond: Double(BenchReportInputs.words(text)) / wall,
                                  wordErrorRate: WordErrorRate.between(reference: BenchReportInputs.speechClipText, hypothesis: text))
        }
    }

    /// The sentence set translated one request each: source words per second.
    func translation(model: String, pair: LanguagePair) async throws -> BenchReportRow {
        try await measuringMemory { engine in
            let translator = try await engine.translator(model)
            for sentence in BenchReportInputs.sentences.prefix(1) { _ = try await translator.translate(sentence, pair: pair) }
            var walls: [Double] = []
            for _ in 0..<runs {
                let start = ContinuousClock.now
                for sentence in BenchReportInputs.sentences { _ = try await translator.translate(sentence, pair: pair) }
                walls.append((ContinuousClock.now - start).seconds)
            }
            let words = BenchReportInputs.sentences.map(BenchReportInputs.words).reduce(0, +)
            return BenchReportRow(kind: .translation, model: model, engine: "warble", wordsPerSecond: Double(words) / (walls.median ?? 1))
        }
    }

    /// `body` in a fresh engine, the row given the growth of the peak resident set it caused.
    private func measuringMemory(_ body: (Engine) async throws -> BenchReportRow) async throws -> BenchReportRow {
        let before = ProcessMemory.residentKiB
        let reset = ProcessMemory.resetPeak()
        var row = try await body(engine())
        if reset, let before, let peak = ProcessMemory.peakResidentKiB {
            row.peakMemoryMiB = Double(max(0, peak - before)) / 1024
        }
        return row
    }

    /// Wall time, audio seconds and time to the first audio of one streamed request.
    static func speak(_ text: String, voice: String, engine: Engine) async throws -> (wall: Double, audio: Double, first: Double) {
        let start = ContinuousClock.now
        var first: Double?
        var audio = 0.0
        for try await chunk in engine.synthesize(SynthesisRequest(text: text, voice: voice)) where !chunk.samples.isEmpty {
            if first == nil { first = (ContinuousClock.now - start).seconds }
            audio += chunk.duration
        }
        guard let first else { throw BenchTTSError("voice \(voice) made no audio") }
        return ((ContinuousClock.now - start).seconds, audio, first)
    }

    static func transcribe(_ clip: AudioBuffer, model: String, options: TranscriptionOptions, engine: Engine) async throws -> String {
        var text = ""
        for try await segment in engine.transcribe(clip, model: model, options: options) { text += segment.text }
        return text
    }
}
