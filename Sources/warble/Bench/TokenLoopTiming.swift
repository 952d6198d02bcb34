import Foundation
import WarbleEngine

/// What the seed families' benchmarks time in a token loop (`warble bench chatterbox`, `bench neutts`):
/// the first call (the prefill and the first token) apart, then each call that ran steps, per token,
/// with the share of the loop's time spent inside ONNX Runtime's runs (`RuntimeDiagnostics`).
struct TokenLoopTiming {
    var firstToken: [Double] = []
    var perToken: [Double] = []
    var wall = 0.0
    var run = 0.0

    /// The share of the loop's time spent outside ONNX Runtime.
    var outsideRun: Double { (wall - run) / max(wall, 1e-12) }

    /// Runs one loop to its end: `next` gives the next token (nil at the end), `written` how many steps
    /// it has run. Returns every token; nil when the first call gives none.
    mutating func time(next: () throws -> Int?, written: () -> Int) throws -> [Int]? {
        let start = ContinuousClock.now
        guard let first = try next() else { return nil }
        firstToken.append((ContinuousClock.now - start).seconds)
        var tokens = [first]
        while true {
            let before = written()
            RuntimeDiagnostics.startCountingRuns()
            let callStart = ContinuousClock.now
            let token = try next()
            let seconds = (ContinuousClock.now - callStart).seconds
            let counted = RuntimeDiagnostics.stopCountingRuns()
            // Calls that ran steps (the call after the last step runs none).
            if written() > before {
                perToken.append(seconds / Double(written() - before))
                wall += seconds
                run += counted.seconds
            }
            guard let token else { return tokens }
            tokens.append(token)
        }
    }
}
