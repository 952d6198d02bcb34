import Foundation
import ONNXRuntime

/// What the stage benchmarks (`StageBenchmarking`) time in a token loop: the first call (the prefill and the
/// first token) apart, then each call that ran steps, per token, with the share of the loop's time spent
/// inside ONNX Runtime's runs (`RunTimer`).
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
            RunTimer.start()
            let callStart = ContinuousClock.now
            let token = try next()
            let seconds = (ContinuousClock.now - callStart).seconds
            let counted = RunTimer.stop()
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

/// A stage timed apart: its wall time, and the seconds of it inside ONNX Runtime's runs.
func timedStage<T>(_ work: () throws -> T) rethrows -> (value: T, seconds: Double, run: Double) {
    RunTimer.start()
    let start = ContinuousClock.now
    let value = try work()
    let seconds = (ContinuousClock.now - start).seconds
    return (value, seconds, RunTimer.stop().seconds)
}

/// A benchmark's report as one JSON object, keys sorted.
func stageReport(_ report: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(report), as: UTF8.self)
}

extension Array where Element == Double {
    /// The median (nil when empty).
    var median: Double? {
        guard !isEmpty else { return nil }
        let sorted = self.sorted()
        return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
    }
}
