import ArgumentParser
import Foundation
import WarbleEngine
import WarblePhonemes

/// `warble bench tts`: one voice on a fixed text set through the engine, the way `warble say` runs it
/// (used by scripts/bench-tts.sh next to piper-tts and kokoro-onnx).
struct BenchTTSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tts",
        abstract: "Load time, synthesis time, real-time factor, time to first audio and peak memory of a voice.",
        discussion: """
            Prints one JSON object. Times are wall-clock seconds. run_s is the time inside ONNX Runtime's \
            Run (counted by the engine's run counter), outside_run_s the rest of the synthesis time, of which \
            phonemize_s is espeak-ng, synth_cpu_s the process's CPU time. For a cloned voice, speaker_similarity \
            is its similarity to its clip, as `warble voice check` measures it. The engine's chunk cache is off unless --cache-mb is given, so every \
            sentence is really synthesised. With --text-file only that text is synthesised (for memory).
            """
    )

    @Option(help: "Voice id (see `warble voices`).")
    var voice = "en_US-joe-medium"

    @Option(help: "The fixed text set (JSON with 'sentences' and 'paragraph').")
    var texts = "tools/ttsbench/texts.json"

    @Option(help: "Synthesise only this text file (for the memory measurement) instead of the text set.")
    var textFile: String?

    @Option(help: "Intra-op threads for ONNX Runtime.")
    var threads = 1

    @Option(help: "Time-to-first-audio repetitions (the median is reported).")
    var repeats = 3

    @Option(help: "Size of the engine's chunk cache in MiB (0: off).")
    var cacheMb = 0

    @Flag(inversion: .prefixedNo, help: "ONNX Runtime's CPU memory arena (on in the engine's default session options).")
    var memoryArena = true

    func run() async throws {
        let phonemizer = TimedPhonemizer(EspeakPhonemizer())
        let engine = Engine(phonemizer: phonemizer, configuration: Engine.Configuration(
            defaultVoice: voice, idleUnloadAfter: nil, cacheBytes: cacheMb << 20,
            threads: threads, memoryArena: memoryArena))
        let chosen = try await engine.voice(voice)
        var report = BenchTTSReport(voice: chosen.id, threads: threads, memory_arena: memoryArena, cache_mib: cacheMb)

        let loadStart = ContinuousClock.now
        _ = try await engine.renderer(for: chosen.model)
        report.load_s = (ContinuousClock.now - loadStart).seconds
        report.rss_after_load_kib = ProcessMemory.residentKiB
        report.warmup_s = try await Self.speak("Warm up.", voice: chosen.id, engine: engine).seconds

        if let textFile {
            guard let data = FileManager.default.contents(atPath: textFile), let text = String(data: data, encoding: .utf8) else {
                throw BenchTTSError("text file \(textFile) not found or not UTF-8")
            }
            report.words = text.split(whereSeparator: \.isWhitespace).count
            try await measure(&report, texts: [text], engine: engine, phonemizer: phonemizer)
        } else {
            let set = try BenchTTSTexts.load(texts)
            report.words = set.sentences.joined(separator: " ").split(whereSeparator: \.isWhitespace).count
            try await measure(&report, texts: set.sentences, engine: engine, phonemizer: phonemizer)
            var firstAudio: [Double] = []
            var firstSentence: [Double] = []
            for _ in 0..<max(1, repeats) {
                firstAudio.append(try await Self.timeToFirstAudio(set.paragraph.joined(separator: " "), voice: chosen.id, engine: engine))
                firstSentence.append(try await Self.speak(set.paragraph[0], voice: chosen.id, engine: engine).seconds)
            }
            report.ttfa_paragraph_s = firstAudio.median
            report.first_sentence_s = firstSentence.median
        }
        report.peak_rss_kib = ProcessMemory.peakResidentKiB
        // A cloned voice: how close it sounds to its clip, on the held-out sentences (as `warble voice check`).
        if let profile = engine.library.snapshot().profile(chosen.id), profile.source?.speakerEmbedding != nil {
            report.speaker_similarity = try await engine.checkVoice(chosen.id, stock: false).voice.similarity
        }
        print(try WarbleJSON.string(report))
    }

    /// Synthesises each text as one request, adding up wall time, audio and the time inside Run.
    private func measure(_ report: inout BenchTTSReport, texts: [String], engine: Engine, phonemizer: TimedPhonemizer) async throws {
        phonemizer.reset()
        RuntimeDiagnostics.startCountingRuns()
        let cpu = ProcessMemory.cpuSeconds
        var seconds = 0.0
        var audio = 0.0
        for text in texts {
            let spoken = try await Self.speak(text, voice: report.voice, engine: engine)
            seconds += spoken.seconds
            audio += spoken.audio
        }
        let run = RuntimeDiagnostics.stopCountingRuns()
        report.synth_s = seconds
        report.synth_cpu_s = ProcessMemory.cpuSeconds - cpu
        report.audio_s = audio
        report.rtf = seconds / max(audio, 1e-9)
        report.runs = run.runs
        report.run_s = run.seconds
        report.outside_run_s = seconds - run.seconds
        report.phonemize_s = phonemizer.seconds
    }

    /// Wall time of a whole request, and the seconds of audio it made.
    private static func speak(_ text: String, voice: String, engine: Engine) async throws -> (seconds: Double, audio: Double) {
        let start = ContinuousClock.now
        var audio = 0.0
        for try await chunk in engine.synthesize(SynthesisRequest(text: text, voice: voice)) {
            audio += chunk.duration
        }
        return ((ContinuousClock.now - start).seconds, audio)
    }

    /// Time from the request to its first chunk with audio; the rest is not synthesised.
    private static func timeToFirstAudio(_ text: String, voice: String, engine: Engine) async throws -> Double {
        let start = ContinuousClock.now
        for try await chunk in engine.synthesize(SynthesisRequest(text: text, voice: voice)) where !chunk.samples.isEmpty {
            return (ContinuousClock.now - start).seconds
        }
        throw BenchTTSError("the paragraph produced no audio")
    }
}

/// What `warble bench tts` prints (snake_case keys, shared with tools/ttsbench/bench_reference.py).
struct BenchTTSReport: Encodable {
    var impl = "swift"
    var voice: String
    var threads: Int
    var memory_arena: Bool
    var cache_mib: Int
    var words: Int?
    var load_s: Double?
    var warmup_s: Double?
    var synth_s: Double?
    /// Process CPU time (user + system) during the synthesis: less disturbed by a busy machine.
    var synth_cpu_s: Double?
    var audio_s: Double?
    var rtf: Double?
    var runs: Int?
    var run_s: Double?
    var outside_run_s: Double?
    var phonemize_s: Double?
    var ttfa_paragraph_s: Double?
    var first_sentence_s: Double?
    var rss_after_load_kib: Int?
    var peak_rss_kib: Int?
    /// A cloned voice's speaker similarity to its clip (cosine of d-vectors, held-out sentences).
    var speaker_similarity: Double?
}

extension Array where Element == Double {
    var median: Double? {
        guard !isEmpty else { return nil }
        let sorted = self.sorted()
        return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
    }
}
