import WarbleSpeech
import Foundation
import Testing
@testable import WarbleModels

/// The vectorised kernels behind decoding against double-precision loops over the same values.
@Suite("Whisper decoding math")
struct WhisperMathTests {
    /// A logits row like a decoder's: 51,864 values in [-30, 30], some suppressed (−∞), fixed seed.
    static func row(count: Int = 51_864, seed: UInt64 = 7) -> [Float] {
        var generator = SplitMix64(seed: seed)
        var values = (0..<count).map { _ in Float(Double(generator.next() >> 11) / Double(1 << 53) * 60 - 30) }
        for i in stride(from: 3, to: count, by: 97) { values[i] = -.infinity }
        return values
    }

    static func referenceLogSumExp(_ values: [Float]) -> Double {
        let peak = Double(values.max()!)
        return peak + log(values.reduce(0.0) { $0 + exp(Double($1) - peak) })
    }

    /// Relative error of the log-sum-exp below 1e-6 for every row length from 0 to 40 (vector tails)
    /// and a vocabulary-sized row; all −∞ gives −∞.
    @Test func logSumExpMatchesDoublePrecision() {
        for count in Array(1...40) + [51_864] {
            let values = Self.row(count: count, seed: UInt64(count))
            let got = LogitMath.logSumExp(values), want = Self.referenceLogSumExp(values)
            if want == -.infinity { #expect(got == -.infinity); continue }
            #expect(abs(got - want) <= 1e-6 * max(1, abs(want)), "\(count): \(got) vs \(want)")
        }
        #expect(LogitMath.logSumExp([Float]()) == -.infinity)
        #expect(LogitMath.logSumExp([Float](repeating: -.infinity, count: 33)) == -.infinity)
        // Values far below the peak contribute (almost) nothing, and nothing goes negative or NaN.
        #expect(abs(LogitMath.logSumExp([0, -200, -1e30, -.infinity]) - 0) < 1e-12)
    }

    /// Each exponential within 2.5e-7 relative of libm's over [-87, 0] (seen through log(1 + exp(x))),
    /// and their sum too.
    @Test func exponentialIsAccurate() {
        let xs = stride(from: -87.0, through: 0.0, by: 0.0137).map { Float($0) }
        for x in xs {
            let e = exp(LogitMath.logSumExp([0, x])) - 1, want = exp(Double(x))
            #expect(abs(e - want) <= 2.5e-7 * want + 1e-15, "\(x): \(e) vs \(want)")
        }
        let values: [Float] = xs
        let sum = exp(LogitMath.logSumExp(values))
        let want = values.reduce(0.0) { $0 + exp(Double($1)) }
        #expect(abs(sum - want) / want < 2e-7, "\(sum) vs \(want)")
    }

    /// Top k and argmax: the same indices as sorting (largest first, lower index first on ties),
    /// with ties, −∞ and rows shorter than k.
    @Test func topMatchesSorting() {
        var values = Self.row()
        values[40_000] = 31
        values[12] = 31  // a tie with a later index
        values[51_863] = 30.5
        for k in [1, 2, 6, 11, 64] {
            let want = values.indices.sorted { values[$0] > values[$1] || (values[$0] == values[$1] && $0 < $1) }
            #expect(LogitMath.top(values, count: k) == Array(want.prefix(k)), "k \(k)")
        }
        #expect(LogitMath.argmax(values) == 12)
        #expect(LogitMath.top([1, 3, 2], count: 6) == [1, 2, 0])
        #expect(LogitMath.top([-.infinity, -.infinity], count: 1) == [0])
        #expect(LogitMath.top([], count: 3).isEmpty)
        #expect(LogitMath.maximum(UnsafeBufferPointer(start: nil, count: 0)) == -.infinity)
    }
}
