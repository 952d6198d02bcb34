import WarbleSpeech
import Foundation

/// Which tokens may come next, as ctranslate2 decides for faster-whisper: `suppress_ids` at every
/// step, `suppress_ids_begin` at the first step, then (with timestamps) the timestamp rules:
/// timestamps first and at most `maxInitialTimestamp`, in pairs, never decreasing (and, but for the one
/// closing a pair, above the last: no segment of zero length), and forced when their summed probability
/// beats every text token.
struct WhisperLogitsFilter: Sendable {
    let configuration: WhisperConfiguration
    let timestamps: Bool
    /// Index of the largest allowed first timestamp (faster-whisper: round(1.0 / 0.02) = 50).
    let maxInitialTimestampIndex: Int?
    let suppressBlank: Bool

    /// Sets disallowed entries of `logits` to −∞. `generated`: the tokens this row produced so far.
    func apply(_ logits: inout [Float], generated: ArraySlice<Int>) {
        let c = configuration
        let eot = c.specialTokens.eot
        let begin = c.specialTokens.timestampBegin
        let end = c.timestampEnd
        logits.withUnsafeMutableBufferPointer { l in
            func disable(_ range: Range<Int>) {
                for i in range.clamped(to: 0..<l.count) { l[i] = -.infinity }
            }
            for id in c.suppressIDs where id < l.count { l[id] = -.infinity }
            if generated.isEmpty, suppressBlank {
                for id in c.suppressIDsBegin where id < l.count { l[id] = -.infinity }
            }
            guard timestamps else { return }
            l[c.specialTokens.noTimestamps] = -.infinity
            var checkTimestampProbability = false
            if generated.isEmpty {
                disable(0..<begin)
                if let index = maxInitialTimestampIndex { disable((begin + index + 1)..<(end + 1)) }
            } else {
                let last = generated[generated.endIndex - 1]
                let penultimate = generated.count > 1 ? generated[generated.endIndex - 2] : last
                let opensPair = last >= begin && penultimate < begin
                if last >= begin {
                    if !opensPair {
                        disable(begin..<(end + 1))
                    } else {
                        disable(0..<eot)
                        checkTimestampProbability = true
                    }
                } else {
                    checkTimestampProbability = true
                }
                // Timestamps never decrease, and a segment never has zero length: after text (or a closed
                // pair) the next timestamp is above the last one; only the timestamp closing a pair may
                // repeat it.
                if let lastTimestamp = generated.last(where: { $0 >= begin }) {
                    disable(begin..<(opensPair ? lastTimestamp : lastTimestamp + 1))
                }
            }
            guard checkTimestampProbability else { return }
            // ctranslate2 compares log-softmax values; the normaliser is common to both sides, so the
            // raw logits decide the same and only the 1,501 timestamp entries need an exponential.
            let all = UnsafeBufferPointer(l)
            let maxText = Double(LogitMath.maximum(UnsafeBufferPointer(rebasing: all[0..<begin])))
            let timestamp = LogitMath.logSumExp(UnsafeBufferPointer(rebasing: all[begin...]))
            if timestamp > maxText { disable(0..<begin) }
        }
    }
}
