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

    /// The k-th largest of `values` (k ≥ 1, at most their count), through a min-heap of the k largest
    /// seen: one pass, O(n log k), where sorting a 194k-token vocabulary each step would cost more than
    /// the step.
    public static func kthLargest(_ values: [Float], _ k: Int) -> Float {
        var heap = [Float](repeating: 0, count: k)
        return values.withUnsafeBufferPointer { row in
            heap.withUnsafeMutableBufferPointer { heap in
                var filled = 0
                var n = 0
                while n < row.count {
                    let value = row[n]
                    n += 1
                    if filled < k {
                        // Sift up.
                        var i = filled
                        heap[i] = value
                        filled += 1
                        while i > 0, heap[(i - 1) / 2] > heap[i] {
                            heap.swapAt(i, (i - 1) / 2)
                            i = (i - 1) / 2
                        }
                    } else if value > heap[0] {
                        // Replace the smallest and sift down.
                        heap[0] = value
                        var i = 0
                        while true {
                            let l = 2 * i + 1, r = l + 1
                            var m = i
                            if l < k, heap[l] < heap[m] { m = l }
                            if r < k, heap[r] < heap[m] { m = r }
                            if m == i { break }
                            heap.swapAt(i, m)
                            i = m
                        }
                    }
                }
                return heap[0]
            }
        }
    }
}
