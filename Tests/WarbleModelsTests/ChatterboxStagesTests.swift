import Foundation
import Testing
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// `ChatterboxStages` (what `warble bench stages chatterbox` drives) on the fixture graphs: the layout read
/// from the sessions, the loop the model's own (`ChatterboxTokenGeneration`, greedy), its stop, and the
/// decoder's length.
@Suite(.needs(fixtures: "chatterbox"), .needsRuntime) struct ChatterboxStagesTests {
    static let clip = (0..<(6 * 24_000)).map { i -> Float in
        let t = Double(i) / 24_000
        return Float(0.1 * sin(2 * .pi * 180 * t) + 0.05 * sin(2 * .pi * 523 * t))
    }

    @Test(arguments: ["fp32", "q4f16"])
    func stagesRunTheModelsLoopAndDecoder(variant: String) throws {
        let stages = try ChatterboxStages.load(directory: ChatterboxTests.repo, variant: variant, threads: 1)
        #expect(stages.variant == variant)
        #expect(stages.layers == 3 && stages.heads == 4 && stages.width == 64)
        let voice = try stages.encode(Self.clip)
        #expect(voice.featureRows == 1 + 150)
        #expect(voice.promptTokens == 150)

        let text = (0..<30).map { (1000 + 37 * $0) % 50_257 }
        var loop = stages.tokens(voice: voice, textIDs: text, steps: 20)
        var tokens: [Int] = []
        while let token = try loop.next() { tokens.append(token) }
        #expect(tokens.count == 20 && loop.written == 20 && !loop.stopped)

        var own = ChatterboxTokenGeneration(model: stages.llm, features: voice.voice.features, featureRows: voice.voice.featureRows,
                                            text: text, sampler: ChatterboxSampler(mode: .greedy), seed: 0, maxSteps: 20)
        #expect(try own.all(cancel: CancellationToken()) == tokens)

        // The toy writes 3 × (text ids) tokens and then STOP: the loop ends before its step limit.
        var short = stages.tokens(voice: voice, textIDs: Array(text.prefix(5)), steps: 100)
        var count = 0
        while try short.next() != nil { count += 1 }
        #expect(count == 15 && short.stopped && short.written == 16)

        let audio = try stages.decode(tokens + Array(repeating: ChatterboxStages.silence, count: 3), voice: voice)
        #expect(audio.count == 23 * 960)
        #expect(try stages.decode(Array(tokens.prefix(10)), voice: voice).count == 10 * 960)
    }
}
