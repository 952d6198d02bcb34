import ArgumentParser
import Foundation
import WarbleEngine
import WarbleModels

/// `warble bench chatterbox`: Chatterbox Turbo's stages timed apart on a model directory (real graphs,
/// or tools/chatterbox/bench_graphs.py's real-size random ones), next to tools/bench/chatterbox_bench.py.
struct BenchChatterboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chatterbox",
        abstract: "Per-token decode cost, decoder cost per second of audio, and the real-time factor they predict.",
        discussion: """
            Prints one JSON object (the keys of tools/bench/chatterbox_bench.py). A 10-s clip (two sines) goes \
            through the speech encoder once (encoder_s); the language model then runs the prefill \
            (conditioning ++ 30 text ids) and --tokens greedy steps with the repetition penalty (the graphs \
            must not stop before); the decoder runs on prompt ++ speech ++ 3 silence tokens, and once on a \
            streaming chunk (5 context + 25 new tokens). per_token_ms is the median over every step after the \
            first of every repeat (language model, penalty and argmax, embed_tokens); decode_outside_run is \
            the share of that wall time outside ONNX Runtime's Run. predicted_rtf = (tokens × per_token + \
            decoder) / (tokens / 25 s); streaming_rtf = 25 × per_token + one chunk's decoder time.
            """
    )

    static let clipSeconds = 10
    static let tokensPerSecond = 25.0
    static let sampleRate = 24_000.0

    @Option(help: "A Chatterbox Turbo model directory (onnx/*.onnx, tokenizer.json).")
    var modelDir: String

    @Option(help: "fp32 or q4f16 (or another variant whose files are there).")
    var variant = "fp32"

    @Option(help: "Speech tokens to write (at least 30; 25 tokens = 1 s of audio).")
    var tokens = 200

    @Option(help: "Repetitions of the whole measurement (medians are reported).")
    var repeats = 3

    @Option(help: "Intra-op threads for ONNX Runtime.")
    var threads = 1

    func validate() throws {
        guard tokens >= 30 else { throw ValidationError("--tokens must be at least 30 (one streaming chunk of 25 with 5 of context)") }
        guard repeats >= 1, threads >= 0 else { throw ValidationError("--repeats must be positive and --threads not negative") }
    }

    func run() throws {
        var report = BenchChatterboxReport(variant: variant, threads: threads, tokens: tokens, repeats: repeats, clip_s: Self.clipSeconds)
        let loadStart = ContinuousClock.now
        let stages = try ChatterboxStages.load(directory: URL(fileURLWithPath: modelDir), variant: variant, threads: threads)
        report.load_s = (ContinuousClock.now - loadStart).seconds

        // The request (the same arrays as chatterbox_bench.py): the clip and 30 text ids.
        let clip = (0..<(Self.clipSeconds * 24_000)).map { i -> Float in
            let t = Double(i) / Self.sampleRate
            return Float(0.1 * sin(2 * .pi * 180 * t) + 0.05 * sin(2 * .pi * 523 * t))
        }
        let text = (0..<30).map { (1000 + 37 * $0) % 50_257 }
        _ = try stages.encode(clip)  // warm-up
        let encodeStart = ContinuousClock.now
        let voice = try stages.encode(clip)
        report.encoder_s = (ContinuousClock.now - encodeStart).seconds
        report.prefill_rows = voice.featureRows + text.count
        report.prompt_tokens = voice.promptTokens

        // Warm-up: two steps, and the decoder over them.
        var warm = stages.tokens(voice: voice, textIDs: text, steps: 2)
        var warmTokens: [Int] = []
        while let token = try warm.next() { warmTokens.append(token) }
        _ = try stages.decode(warmTokens + Array(repeating: ChatterboxStages.silence, count: 3), voice: voice)

        var timing = TokenLoopTiming()
        var decoder: [Double] = [], chunk: [Double] = []
        var decoderWall = 0.0, decoderRun = 0.0
        for _ in 0..<repeats {
            var loop = stages.tokens(voice: voice, textIDs: text, steps: tokens)
            guard let speech = try timing.time(next: { try loop.next() }, written: { loop.written }) else {
                throw ValidationError("the language model stopped at once")
            }
            guard speech.count == tokens, !loop.stopped else {
                throw ValidationError("the language model wrote \(speech.count) speech tokens (stopped: \(loop.stopped)), not \(tokens): "
                    + "these graphs stop early")
            }
            report.generated = speech.count

            RuntimeDiagnostics.startCountingRuns()
            var stageStart = ContinuousClock.now
            let audio = try stages.decode(speech + Array(repeating: ChatterboxStages.silence, count: 3), voice: voice)
            let seconds = (ContinuousClock.now - stageStart).seconds
            let run = RuntimeDiagnostics.stopCountingRuns()
            decoder.append(seconds)
            decoderWall += seconds
            decoderRun += run.seconds
            report.audio_s = Double(audio.count) / Self.sampleRate
            guard audio.count == (tokens + 3) * 960, audio.allSatisfy(\.isFinite) else {
                throw ValidationError("the decoder gave \(audio.count) samples, not \((tokens + 3) * 960), or values that are not finite")
            }

            stageStart = ContinuousClock.now
            _ = try stages.decode(Array(speech.prefix(30)), voice: voice)
            chunk.append((ContinuousClock.now - stageStart).seconds)
        }
        let token = timing.perToken.median ?? .nan
        let audioSeconds = Double(tokens) / Self.tokensPerSecond
        report.per_token_ms = token * 1000
        report.first_token_s = timing.firstToken.median
        report.decode_outside_run = timing.outsideRun
        report.decoder_s = decoder.median
        report.decoder_s_per_audio_s = (decoder.median ?? .nan) / (report.audio_s ?? .nan)
        report.decoder_outside_run = (decoderWall - decoderRun) / max(decoderWall, 1e-12)
        report.chunk_decoder_s = chunk.median
        report.predicted_rtf = (Double(tokens) * token + (decoder.median ?? .nan)) / audioSeconds
        report.streaming_rtf = Self.tokensPerSecond * token + (chunk.median ?? .nan)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}

/// What `warble bench chatterbox` prints (snake_case keys, shared with tools/bench/chatterbox_bench.py).
struct BenchChatterboxReport: Encodable {
    var impl = "swift"
    var variant: String
    var threads: Int
    var tokens: Int
    var repeats: Int
    var clip_s: Int
    var load_s: Double?
    var encoder_s: Double?
    var prefill_rows: Int?
    var prompt_tokens: Int?
    var generated: Int?
    var first_token_s: Double?
    var per_token_ms: Double?
    var decode_outside_run: Double?
    var decoder_s: Double?
    var decoder_s_per_audio_s: Double?
    var decoder_outside_run: Double?
    var chunk_decoder_s: Double?
    var audio_s: Double?
    var predicted_rtf: Double?
    var streaming_rtf: Double?
}
