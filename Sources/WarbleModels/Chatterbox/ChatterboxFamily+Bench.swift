import Foundation
import ONNXRuntime
import WarbleSpeech

/// `warble bench stages chatterbox`: Chatterbox Turbo's stages timed apart on a model directory (real graphs,
/// or tools/chatterbox/bench_graphs.py's real-size random ones), next to tools/bench/chatterbox_bench.py.
extension ChatterboxFamily: StageBenchmarking {
    public var stageBenchAbstract: String {
        "Per-token decode cost, decoder cost per second of audio, and the real-time factor they predict."
    }

    public var stageBenchDiscussion: String {
        """
        Prints one JSON object (the keys of tools/bench/chatterbox_bench.py). A 10-s clip (two sines) goes \
        through the speech encoder once (encoder_s); the language model then runs the prefill \
        (conditioning ++ 30 text ids) and --tokens greedy steps with the repetition penalty (the graphs \
        must not stop before); the decoder runs on prompt ++ speech ++ 3 silence tokens, and on every \
        chunk length that streaming 10 s and 30 s of speech (250 and 750 tokens) decodes, in the chunks of \
        25, 50, 100, 200, 200, … tokens and in the fixed 25-token chunks of before (the `_fixed` keys; each \
        length timed once a repeat, as the decoder's cost depends on the length, not on the tokens). \
        per_token_ms is the median over every step after the first of every repeat (language model, penalty \
        and argmax, embed_tokens); decode_outside_run is the share of that wall time outside ONNX Runtime's \
        Run. predicted_rtf = (tokens × per_token + decoder) / (tokens / 25 s). For a stream: \
        stream_decoder_s_* sums the chunks' decoder times; streaming_rtf(_fixed) = (750 × per_token + that \
        sum) / 30 s; stream_stall_s_* is how long playback, begun at the first chunk \
        (stream_first_audio_s after the prefill), waits for later chunks when tokens and chunks are made one \
        after the other.
        """
    }

    public var stageBenchOptions: [StageBenchOption] {
        [
            StageBenchOption("variant", default: "fp32", help: "fp32 or q4f16 (or another variant whose files are there)."),
            StageBenchOption("tokens", default: "200", help: "Speech tokens to write (at least 30; 25 tokens = 1 s of audio)."),
            StageBenchOption("repeats", default: "3", help: "Repetitions of the whole measurement (medians are reported)."),
            StageBenchOption("threads", default: "1", help: "Intra-op threads for ONNX Runtime."),
        ]
    }

    public func benchStages(modelDirectory: URL, options: StageBenchOptions) throws -> String {
        let (variant, tokens) = (options.string("variant") ?? "fp32", try options.int("tokens"))
        let (repeats, threads) = (try options.int("repeats"), try options.int("threads"))
        guard tokens >= 30 else { throw ModelError(.badInput, "--tokens must be at least 30") }
        guard repeats >= 1, threads >= 0 else { throw ModelError(.badInput, "--repeats must be positive and --threads not negative") }
        var report = ChatterboxBenchReport(variant: variant, threads: threads, tokens: tokens, repeats: repeats, clip_s: ChatterboxBench.clipSeconds)
        let loadStart = ContinuousClock.now
        let stages = try ChatterboxStages.load(directory: modelDirectory, variant: variant, threads: threads)
        report.load_s = (ContinuousClock.now - loadStart).seconds

        // The request (the same arrays as chatterbox_bench.py): the clip and 30 text ids.
        let clip = (0..<(ChatterboxBench.clipSeconds * 24_000)).map { i -> Float in
            let t = Double(i) / ChatterboxBench.sampleRate
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
        var decoder: [Double] = [], chunkLengths: [Int: [Double]] = [:]
        var decoderWall = 0.0, decoderRun = 0.0
        for _ in 0..<repeats {
            var loop = stages.tokens(voice: voice, textIDs: text, steps: tokens)
            guard let speech = try timing.time(next: { try loop.next() }, written: { loop.written }) else {
                throw ModelError(.badInput, "the language model stopped at once")
            }
            guard speech.count == tokens, !loop.stopped else {
                throw ModelError(.badInput, "the language model wrote \(speech.count) speech tokens (stopped: \(loop.stopped)), not \(tokens): "
                    + "these graphs stop early")
            }
            report.generated = speech.count

            RunTimer.start()
            var stageStart = ContinuousClock.now
            let audio = try stages.decode(speech + Array(repeating: ChatterboxStages.silence, count: 3), voice: voice)
            let seconds = (ContinuousClock.now - stageStart).seconds
            let run = RunTimer.stop()
            decoder.append(seconds)
            decoderWall += seconds
            decoderRun += run.seconds
            report.audio_s = Double(audio.count) / ChatterboxBench.sampleRate
            guard audio.count == (tokens + 3) * 960, audio.allSatisfy(\.isFinite) else {
                throw ModelError(.badInput, "the decoder gave \(audio.count) samples, not \((tokens + 3) * 960), or values that are not finite")
            }

            // Each chunk length the streams decode, once: the speech repeated to that length.
            for length in ChatterboxBench.chunkLengths {
                let input = (0..<length).map { speech[$0 % speech.count] }
                stageStart = ContinuousClock.now
                _ = try stages.decode(input, voice: voice)
                chunkLengths[length, default: []].append((ContinuousClock.now - stageStart).seconds)
            }
        }
        let token = timing.perToken.median ?? .nan
        let audioSeconds = Double(tokens) / Double(ChatterboxBench.tokensPerSecond)
        report.per_token_ms = token * 1000
        report.first_token_s = timing.firstToken.median
        report.decode_outside_run = timing.outsideRun
        report.decoder_s = decoder.median
        report.decoder_s_per_audio_s = (decoder.median ?? .nan) / (report.audio_s ?? .nan)
        report.decoder_outside_run = (decoderWall - decoderRun) / max(decoderWall, 1e-12)
        report.predicted_rtf = (Double(tokens) * token + (decoder.median ?? .nan)) / audioSeconds
        var streams: [String: ChatterboxStreamCost] = [:]
        for (schedule, seconds) in ChatterboxBench.streams {
            streams["\(seconds)s" + (schedule == .fixed ? "_fixed" : "")] =
                ChatterboxStreamCost(schedule: schedule, speechTokens: seconds * ChatterboxBench.tokensPerSecond, perToken: token) {
                    chunkLengths[$0]?.median ?? .nan
                }
        }
        report.stream_first_audio_s = streams["30s"]?.firstAudioSeconds
        (report.stream_decoder_s_10s, report.stream_decoder_s_10s_fixed) = (streams["10s"]?.decoderSeconds, streams["10s_fixed"]?.decoderSeconds)
        (report.stream_decoder_s_30s, report.stream_decoder_s_30s_fixed) = (streams["30s"]?.decoderSeconds, streams["30s_fixed"]?.decoderSeconds)
        (report.stream_stall_s_10s, report.stream_stall_s_10s_fixed) = (streams["10s"]?.stallSeconds, streams["10s_fixed"]?.stallSeconds)
        (report.stream_stall_s_30s, report.stream_stall_s_30s_fixed) = (streams["30s"]?.stallSeconds, streams["30s_fixed"]?.stallSeconds)
        (report.streaming_rtf, report.streaming_rtf_fixed) = (streams["30s"]?.rtf, streams["30s_fixed"]?.rtf)
        return try stageReport(report)
    }
}

/// The benchmark's request: a clip of `clipSeconds` (two sines) at `sampleRate`.
enum ChatterboxBench {
    static let clipSeconds = 10
    static let tokensPerSecond = 25
    static let sampleRate = 24_000.0
    /// The streams whose cost is reported: 10 s and 30 s of speech, in the growing and the fixed chunks.
    static let streams: [(ChatterboxChunkSchedule, Int)] = [(.growing, 10), (.fixed, 10), (.growing, 30), (.fixed, 30)]
    /// The chunk inputs those streams give the decoder (before the prompt), each length once.
    static let chunkLengths = Set(streams.flatMap { schedule, seconds in
        ChatterboxStreamCost.decoderInputs(schedule, speechTokens: seconds * tokensPerSecond)
    }).sorted()
}

/// What `warble bench stages chatterbox` prints (snake_case keys, shared with tools/bench/chatterbox_bench.py).
struct ChatterboxBenchReport: Encodable {
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
    var audio_s: Double?
    var predicted_rtf: Double?
    var stream_first_audio_s: Double?
    var stream_decoder_s_10s: Double?
    var stream_decoder_s_10s_fixed: Double?
    var stream_decoder_s_30s: Double?
    var stream_decoder_s_30s_fixed: Double?
    var stream_stall_s_10s: Double?
    var stream_stall_s_10s_fixed: Double?
    var stream_stall_s_30s: Double?
    var stream_stall_s_30s_fixed: Double?
    var streaming_rtf: Double?
    var streaming_rtf_fixed: Double?
}
