import WarbleSpeech
import CVectorMath
import Foundation

/// Softmax helpers for decoding, shared by every autoregressive family: each is one vectorised pass
/// over a row of logits (Whisper: 51,864 per row and step); sums in double precision.
public enum LogitMath {
    /// log Σ exp(values); −∞ entries (suppressed tokens) count as zero, and −∞ when all are.
    public static func logSumExp(_ values: UnsafeBufferPointer<Float>) -> Double {
        guard let base = values.baseAddress else { return -.infinity }
        let peak = warble_max_f32(base, values.count)
        guard peak > -.infinity else { return -.infinity }
        return Double(peak) + log(warble_sum_exp_f32(base, values.count, peak))
    }

    public static func logSumExp(_ values: [Float]) -> Double {
        values.withUnsafeBufferPointer { logSumExp($0) }
    }

    /// The largest value (−∞ for none).
    public static func maximum(_ values: UnsafeBufferPointer<Float>) -> Float {
        guard let base = values.baseAddress else { return -.infinity }
        return warble_max_f32(base, values.count)
    }

    /// Log-softmax of `values` in double precision.
    public static func logSoftmax(_ values: [Float]) -> [Double] {
        let shift = logSumExp(values)
        return values.map { Double($0) - shift }
    }

    /// Indices of the `count` (at most 64) largest values, largest first (the first one on ties).
    public static func top(_ values: [Float], count: Int) -> [Int] {
        var indices = [Int64](repeating: 0, count: min(max(count, 0), 64))
        let found = values.withUnsafeBufferPointer { v in
            indices.withUnsafeMutableBufferPointer { i in
                guard let base = v.baseAddress, let out = i.baseAddress else { return 0 }
                return warble_top_k_f32(base, v.count, i.count, out)
            }
        }
        return indices.prefix(found).map(Int.init)
    }

    /// The index of the largest value (the first one on ties).
    public static func argmax(_ values: [Float]) -> Int {
        top(values, count: 1).first ?? 0
    }
}
