import Foundation
import ONNXRuntime
import WarbleSpeech

/// `warble bench stages cosyvoice3`: CosyVoice 3's stages timed apart on a model directory (real graphs, or
/// tools/cosyvoice3/bench_graphs.py's real-size random ones), next to tools/bench/cosyvoice3_bench.py.
extension CosyVoice3Family: StageBenchmarking {
    public var stageBenchAbstract: String {
        "Per-token decode cost, flow and HiFT cost per second of audio, and the real-time factor they predict."
    }

    public var stageBenchDiscussion: String {
        """
        Prints one JSON object (the keys of tools/bench/cosyvoice3_bench.py). The LLM runs the prefill \
        and then --tokens steps (text of tokens/20 ids: max_len = 20 × that; the graphs must never stop \
        early); the flow (10 Euler steps with CFG, one shot) and HiFT then run over the tokens' mel. \
        per_token_ms is the median over every decode step of every repeat (decoder, sampling, speech \
        embedding and backbone step); decode_outside_run is the share of that wall time outside \
        ONNX Runtime's Run. first_token_s is prefill + first token: the prompt's embeddings, the \
        initial pass, the first decoder run and sample, and the backbone step that feeds that token \
        back (the Python side times the same runs, up to its second decoder run). \
        predicted_rtf = (tokens × per_token + flow + HiFT) / (tokens / 25 s).
        """
    }

    public var stageBenchOptions: [StageBenchOption] {
        [
            StageBenchOption("variant", default: "fp32", help: "fp32 or fp16 (LLM and flow graphs)."),
            StageBenchOption("tokens", default: "100", help: "Speech tokens to generate (a multiple of 20; 25 tokens = 1 s of audio)."),
            StageBenchOption("prompt-tokens", default: "75", help: "Speech tokens of the voice prompt (its mel is twice as many frames)."),
            StageBenchOption("repeats", default: "3", help: "Repetitions of the whole measurement (medians are reported)."),
            StageBenchOption("threads", default: "1", help: "Intra-op threads for ONNX Runtime."),
        ]
    }

    public func benchStages(modelDirectory: URL, options: StageBenchOptions) throws -> String {
        let (variant, tokens, promptTokens) = (options.string("variant") ?? "fp32", try options.int("tokens"), try options.int("prompt-tokens"))
        let (repeats, threads) = (try options.int("repeats"), try options.int("threads"))
        guard tokens >= 20, tokens % 20 == 0 else { throw ModelError(.badInput, "--tokens must be a positive multiple of 20") }
        guard promptTokens >= 0, repeats >= 1, threads >= 0 else {
            throw ModelError(.badInput, "--prompt-tokens, --repeats, --threads must not be negative")
        }
        var report = CosyVoice3BenchReport(variant: variant, threads: threads, tokens: tokens, prompt_tokens: promptTokens, repeats: repeats)
        let loadStart = ContinuousClock.now
        let model = try CosyVoice3Stages.load(directory: modelDirectory, variant: variant, threads: threads)
        report.load_s = (ContinuousClock.now - loadStart).seconds

        // Warm-up: a short loop (20 tokens), then flow and HiFT over the first.
        let warm = stages(model, ttsTextCount: 1, promptTokens: promptTokens)
        var warmLoop = warm.tokens()
        var warmTokens: [Int] = []
        while let token = try warmLoop.next() { warmTokens.append(token) }
        let warmMel = try warm.mel(tokens: Array(warmTokens.prefix(1)))
        _ = try warm.audio(mel: warmMel.values, frames: warmMel.frames)

        let bench = stages(model, ttsTextCount: tokens / 20, promptTokens: promptTokens)
        var perToken: [Double] = []
        var decodeWall = 0.0, decodeRun = 0.0
        var firstToken: [Double] = [], flow: [Double] = [], hift: [Double] = []
        var flowWall = 0.0, flowRun = 0.0, hiftWall = 0.0, hiftRun = 0.0
        for _ in 0..<repeats {
            var loop = bench.tokens()
            var generated: [Int] = []
            let start = ContinuousClock.now
            guard let first = try loop.next() else { throw ModelError(.badInput, "the LLM stopped at once") }
            firstToken.append((ContinuousClock.now - start).seconds)
            generated.append(first)
            while true {
                let before = loop.sampled
                RunTimer.start()
                let callStart = ContinuousClock.now
                let token = try loop.next()
                let seconds = (ContinuousClock.now - callStart).seconds
                let run = RunTimer.stop()
                // Steps that ran the decoder, sampled and ran a backbone step (the last sample runs no step).
                if loop.sampled > before, loop.sampled < loop.maxLength {
                    perToken.append(seconds / Double(loop.sampled - before))
                    decodeWall += seconds
                    decodeRun += run.seconds
                }
                guard let token else { break }
                generated.append(token)
            }
            guard loop.sampled == tokens else {
                throw ModelError(.badInput, "the LLM sampled \(loop.sampled) tokens, not \(tokens): these graphs stop early")
            }
            report.generated = generated.count

            RunTimer.start()
            var stageStart = ContinuousClock.now
            let mel = try bench.mel(tokens: generated)
            var seconds = (ContinuousClock.now - stageStart).seconds
            var run = RunTimer.stop()
            flow.append(seconds)
            flowWall += seconds
            flowRun += run.seconds
            report.flow_frames = 2 * (promptTokens + generated.count)

            RunTimer.start()
            stageStart = ContinuousClock.now
            let audio = try bench.audio(mel: mel.values, frames: mel.frames)
            seconds = (ContinuousClock.now - stageStart).seconds
            run = RunTimer.stop()
            hift.append(seconds)
            hiftWall += seconds
            hiftRun += run.seconds
            report.audio_s = Double(audio.count) / 24_000
            guard audio.allSatisfy(\.isFinite) else { throw ModelError(.badInput, "HiFT gave values that are not finite") }
        }
        let audioSeconds = Double(tokens) / 25
        let token = perToken.median ?? .nan
        report.per_token_ms = token * 1000
        report.first_token_s = firstToken.median
        report.decode_outside_run = (decodeWall - decodeRun) / max(decodeWall, 1e-12)
        report.flow_s = flow.median
        report.flow_s_per_audio_s = (flow.median ?? .nan) / audioSeconds
        report.flow_outside_run = (flowWall - flowRun) / max(flowWall, 1e-12)
        report.hift_s = hift.median
        report.hift_s_per_audio_s = (hift.median ?? .nan) / audioSeconds
        report.hift_outside_run = (hiftWall - hiftRun) / max(hiftWall, 1e-12)
        report.predicted_rtf = (Double(tokens) * token + (flow.median ?? .nan) + (hift.median ?? .nan)) / audioSeconds
        return try stageReport(report)
    }

    /// The benchmark's request (the same ids and arrays as cosyvoice3_bench.py): prompt text of 30 ids
    /// and `<|endofprompt|>`, `ttsTextCount` text ids, `promptTokens` prompt tokens and their mel.
    private func stages(_ model: CosyVoice3Model, ttsTextCount: Int, promptTokens: Int) -> CosyVoice3Stages {
        let promptText = (0..<30).map { (1000 + 37 * $0) % 151_643 } + [151_646]
        let ttsText = (0..<ttsTextCount).map { (5000 + 53 * $0) % 151_643 }
        let prompt = (0..<promptTokens).map { (17 * $0 + 3) % 6561 }
        let mel = (0..<(2 * promptTokens * 80)).map { 0.5 * sin(0.01 * Float($0)) }
        let embedding = (0..<192).map { cos(0.3 * Float($0)) }
        return CosyVoice3Stages(model: model, promptTextIDs: promptText, ttsTextIDs: ttsText, promptTokens: prompt, promptMel: mel,
                                embedding: embedding, seed: 1)
    }
}

/// What `warble bench stages cosyvoice3` prints (snake_case keys, shared with tools/bench/cosyvoice3_bench.py).
struct CosyVoice3BenchReport: Encodable {
    var impl = "swift"
    var variant: String
    var threads: Int
    var tokens: Int
    var prompt_tokens: Int
    var repeats: Int
    var generated: Int?
    var load_s: Double?
    var first_token_s: Double?
    var per_token_ms: Double?
    var decode_outside_run: Double?
    var flow_frames: Int?
    var flow_s: Double?
    var flow_s_per_audio_s: Double?
    var flow_outside_run: Double?
    var hift_s: Double?
    var hift_s_per_audio_s: Double?
    var hift_outside_run: Double?
    var audio_s: Double?
    var predicted_rtf: Double?
}
