import Foundation
import ONNXRuntime
import WarbleSpeech

/// `warble bench stages neutts`: NeuTTS's stages timed apart on a model directory (a real repository, or
/// tools/neutts/bench_graphs.py's real-size random one), next to tools/bench/neutts_bench.py.
extension NeuTTSFamily: StageBenchmarking {
    public var stageBenchAbstract: String {
        "Per-token decode cost, codec cost per second of audio, the real-time factor they predict, and streaming stalls."
    }

    public var stageBenchDiscussion: String {
        """
        Prints one JSON object (the keys of tools/bench/neutts_bench.py). The prompt is the one `say` \
        builds from fixed phonemes (a reference transcript and a sentence) and 100 reference codes (2 s); \
        the backbone then samples --tokens tokens as the authors do (top-k 50, seed 0) with the end token \
        barred throughout (their min_new_tokens bars it for 50). per_token_ms is the median over every \
        step after the first of every repeat (backbone step and sampling); decode_outside_run is the \
        share of that wall time outside ONNX Runtime's Run; first_token_s is prefill + first token. \
        Each token is decoded as its code (its speech code, else id mod 65536). The codec decodes all \
        of them at once (codec_s_per_audio_s), and each --chunk streams them with the authors' \
        arithmetic (chunk + 5 look-ahead, 51 look-back). predicted_rtf = (tokens × per_token + codec) / \
        (tokens / 50 s). Streaming is simulated from the measurements: tokens come at the median \
        per-token rate, each chunk's decode (median over repeats) holds the loop up as it does in \
        `say`, and playback starts with the first piece; a piece that arrives after the audio before it \
        has played out is a stall.
        """
    }

    public var stageBenchOptions: [StageBenchOption] {
        [
            StageBenchOption("backbone", default: "", help: "The backbone graph inside --model-dir (default: onnx/model.onnx, else model.onnx)."),
            StageBenchOption("codec", default: nil, help: "NeuCodec's decoder (model.onnx)."),
            StageBenchOption("tokens", default: "200", help: "Tokens to write (at least 60; 50 codes = 1 s of audio)."),
            StageBenchOption("repeats", default: "3", help: "Repetitions of the whole measurement (medians are reported)."),
            StageBenchOption("threads", default: "1", help: "Intra-op threads for ONNX Runtime."),
            StageBenchOption("chunk", default: "25,50", help: "Streaming chunk sizes to simulate, in codes (comma-separated)."),
        ]
    }

    public func benchStages(modelDirectory: URL, options: StageBenchOptions) throws -> String {
        let (backbone, codec, tokens) = (options.string("backbone"), options.string("codec") ?? "", try options.int("tokens"))
        let (repeats, threads, chunk) = (try options.int("repeats"), try options.int("threads"), options.string("chunk") ?? "")
        let chunks = chunk.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard tokens >= 60 else { throw ModelError(.badInput, "--tokens must be at least 60 (a chunk of 50 with its 5 of look-ahead)") }
        guard repeats >= 1, threads >= 0 else { throw ModelError(.badInput, "--repeats must be positive and --threads not negative") }
        let sizes = chunk.split(separator: ",")
        guard !sizes.isEmpty, chunks.count == sizes.count, chunks.allSatisfy({ (5...500).contains($0) }) else {
            throw ModelError(.badInput, "--chunk takes chunk sizes of 5–500 codes, comma-separated (e.g. 25,50)")
        }
        var report = NeuTTSBenchReport(threads: threads, tokens: tokens, repeats: repeats, reference_codes: NeuTTSBench.referenceCodes.count)
        let loadStart = ContinuousClock.now
        let stages = try NeuTTSStages.load(directory: modelDirectory, backbone: backbone,
                                           codec: URL(fileURLWithPath: codec), threads: threads)
        report.load_s = (ContinuousClock.now - loadStart).seconds
        report.layers = stages.layers
        let prompt = try stages.prompt(referencePhonemes: NeuTTSBench.referencePhonemes, phonemes: NeuTTSBench.phonemes, referenceCodes: NeuTTSBench.referenceCodes)
        report.prompt_tokens = prompt.count
        guard prompt.count + tokens <= stages.context else {
            throw ModelError(.badInput, "the prompt (\(prompt.count) tokens) and --tokens \(tokens) exceed the \(stages.context)-token context")
        }

        // Warm-up: two steps, the codec on each window size the measurement decodes.
        var warm = try stages.tokens(prompt: prompt, steps: 2, seed: 0)
        while try warm.next() != nil {}
        let warmCodes = (0..<tokens).map { (31 * $0) % 65_536 }
        _ = try stages.decode(warmCodes)
        for size in chunks { _ = try stages.decode(Array(warmCodes.prefix(size + NeuTTSStreamTiming.window))) }

        var timing = TokenLoopTiming()
        var codecSeconds: [Double] = []
        var codecWall = 0.0, codecRun = 0.0
        var chunkTimes: [Int: [[Double]]] = [:], chunkSamples: [Int: [Int]] = [:], chunkTokens: [Int: [Int]] = [:]
        for _ in 0..<repeats {
            var loop = try stages.tokens(prompt: prompt, steps: tokens, seed: 0)
            guard let written = try timing.time(next: { try loop.next() }, written: { loop.written }) else {
                throw ModelError(.badInput, "the backbone wrote nothing")
            }
            guard written.count == tokens else {
                throw ModelError(.badInput, "the backbone wrote \(written.count) tokens, not \(tokens): the loop ended early")
            }
            report.generated = written.count
            report.first_tokens = Array(written.prefix(8))
            let codes = written.map(stages.benchCode(of:))

            RunTimer.start()
            let codecStart = ContinuousClock.now
            let audio = try stages.decode(codes)
            let seconds = (ContinuousClock.now - codecStart).seconds
            let run = RunTimer.stop()
            codecSeconds.append(seconds)
            codecWall += seconds
            codecRun += run.seconds
            report.audio_s = Double(audio.count) / Double(NeuTTSStages.sampleRate)
            let full = codes.count * NeuTTSStages.samplesPerCode
            guard audio.count == full || audio.count == full - NeuTTSStages.samplesPerCode, audio.allSatisfy(\.isFinite) else {
                throw ModelError(.badInput, "the codec gave \(audio.count) samples for \(codes.count) codes, or values that are not finite")
            }

            for size in chunks {
                var stream = stages.stream(referenceCodes: NeuTTSBench.referenceCodes, chunk: size)
                var times: [Double] = [], samples: [Int] = [], at: [Int] = []
                for (i, code) in codes.enumerated() {
                    let callStart = ContinuousClock.now
                    let piece = try stream.append(code)
                    let seconds = (ContinuousClock.now - callStart).seconds
                    if !piece.isEmpty { times.append(seconds); samples.append(piece.count); at.append(i + 1) }
                }
                let callStart = ContinuousClock.now
                let rest = try stream.finish()
                times.append((ContinuousClock.now - callStart).seconds)
                samples.append(rest.count)
                at.append(codes.count)
                chunkTimes[size, default: []].append(times)
                chunkSamples[size] = samples
                chunkTokens[size] = at
            }
        }
        let token = timing.perToken.median ?? .nan
        let first = timing.firstToken.median ?? .nan
        let codecMedian = codecSeconds.median ?? .nan
        report.per_token_ms = token * 1000
        report.first_token_s = first
        report.decode_outside_run = timing.outsideRun
        report.codec_s = codecMedian
        report.codec_s_per_audio_s = codecMedian / (report.audio_s ?? .nan)
        report.codec_outside_run = (codecWall - codecRun) / max(codecWall, 1e-12)
        report.predicted_rtf = (Double(tokens) * token + codecMedian) / (Double(tokens) / NeuTTSBench.codesPerSecond)
        var streaming: [String: NeuTTSBenchStreaming] = [:]
        for size in chunks {
            guard let runs = chunkTimes[size], let samples = chunkSamples[size], let at = chunkTokens[size] else { continue }
            let decodes = (0..<samples.count).map { i in runs.map { $0[i] }.median ?? .nan }
            let timing = NeuTTSStreamTiming(firstToken: first, perToken: token, tokens: tokens, decodeAt: at, decodeSeconds: decodes,
                                            samples: samples, sampleRate: Double(NeuTTSStages.sampleRate))
            let regular = Array(decodes.dropLast())
            streaming[String(size)] = NeuTTSBenchStreaming(
                chunk: size, codes_per_decode: size + NeuTTSStreamTiming.window,
                chunk_decode_s: regular.median, final_decode_s: decodes.last ?? 0,
                pieces: samples.filter { $0 > 0 }.count, first_audio_s: timing.firstAudio, stalls: timing.stalls, stall_s: timing.stallSeconds,
                finish_s: timing.finish, audio_s: Double(samples.reduce(0, +)) / Double(NeuTTSStages.sampleRate),
                streaming_rtf: regular.median.map { (Double(size) * token + $0) / (Double(size) / NeuTTSBench.codesPerSecond) })
        }
        report.streaming = streaming
        return try stageReport(report)
    }
}

/// The benchmark's request.
enum NeuTTSBench {
    /// The request (tools/bench/neutts_bench.py has the same): the fixtures' reference transcript and
    /// medium sentence as espeak-ng phonemizes them, and 100 codes.
    static let referencePhonemes = "sˌoʊ aɪ dʒˈʌst tɹˈaɪd ðɪs lˈɪɾəl spˈiːkɚ, ænd ɪt sˈaʊndz klˈiːn ænd kwˈɪk."
    static let phonemes = "ðə kwˈɪk bɹˈaʊn fˈɑːks dʒˈʌmps ˌoʊvɚ ðə lˈeɪzi dˈɑːɡ, ðˈɛn ɪt ɹˈʌnz ˌɪntʊ ðə wˈʊdz."
    static let referenceCodes = (0..<100).map { (7919 * $0 + 13) % 65_536 }
    static let codesPerSecond = 50.0
}

/// The streaming simulation (tools/bench/neutts_bench.py `simulate` is the same arithmetic): the loop
/// writes token 1 at `firstToken`, then one every `perToken`; after token `decodeAt[i]` it decodes
/// chunk i (`decodeSeconds[i]`, holding the loop up, as `say` does) and hands over `samples[i]`
/// samples. Playback starts with the first piece that has samples; a piece that comes after the audio
/// before it has played out is a stall of the difference.
struct NeuTTSStreamTiming {
    /// Codes decoded with a regular chunk besides the chunk: 5 ahead, 50 + 1 behind.
    static let window = 56

    var firstAudio: Double?
    var stalls = 0
    var stallSeconds = 0.0
    /// When the last piece is there.
    var finish = 0.0

    init(firstToken: Double, perToken: Double, tokens: Int, decodeAt: [Int], decodeSeconds: [Double], samples: [Int], sampleRate: Double) {
        var clock = firstToken, written = 1
        var playedUntil: Double?
        for (i, at) in decodeAt.enumerated() {
            clock += Double(max(at - written, 0)) * perToken + decodeSeconds[i]
            written = max(written, at)
            guard samples[i] > 0 else { continue }
            let duration = Double(samples[i]) / sampleRate
            if let until = playedUntil {
                if clock > until {
                    stalls += 1
                    stallSeconds += clock - until
                    playedUntil = clock + duration
                } else {
                    playedUntil = until + duration
                }
            } else {
                firstAudio = clock
                playedUntil = clock + duration
            }
        }
        finish = clock
    }
}

/// What `warble bench stages neutts` prints (snake_case keys, shared with tools/bench/neutts_bench.py).
struct NeuTTSBenchReport: Encodable {
    var impl = "swift"
    var threads: Int
    var tokens: Int
    var repeats: Int
    var reference_codes: Int
    var layers: Int?
    var load_s: Double?
    var prompt_tokens: Int?
    var generated: Int?
    var first_tokens: [Int]?
    var first_token_s: Double?
    var per_token_ms: Double?
    var decode_outside_run: Double?
    var codec_s: Double?
    var codec_s_per_audio_s: Double?
    var codec_outside_run: Double?
    var audio_s: Double?
    var predicted_rtf: Double?
    var streaming: [String: NeuTTSBenchStreaming]?
}

struct NeuTTSBenchStreaming: Encodable {
    var chunk: Int
    var codes_per_decode: Int
    /// Median over the regular chunks (nil when --tokens is too few for one).
    var chunk_decode_s: Double?
    var final_decode_s: Double
    var pieces: Int
    var first_audio_s: Double?
    var stalls: Int
    var stall_s: Double
    var finish_s: Double
    var audio_s: Double
    var streaming_rtf: Double?
}
