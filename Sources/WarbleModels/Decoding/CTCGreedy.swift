/// CTC greedy decoding: the best token of each frame, repeats merged, blanks dropped; each kept token
/// with the frame it starts on.
public enum CTCGreedy {
    /// `logits` holds `frames` rows of `vocabulary` values. A tie goes to the lowest id (as std::max_element).
    public static func decode(_ logits: UnsafeBufferPointer<Float>, frames: Int, vocabulary: Int,
                              blank: Int = 0) -> [(token: Int, frame: Int)] {
        precondition(logits.count >= frames * vocabulary, "CTCGreedy: \(logits.count) logits for \(frames)×\(vocabulary)")
        var out: [(token: Int, frame: Int)] = []
        var previous = -1
        for t in 0..<frames {
            let row = t * vocabulary
            var best = 0
            var bestValue = logits[row]
            for v in 1..<vocabulary where logits[row + v] > bestValue {
                best = v
                bestValue = logits[row + v]
            }
            if best != blank, best != previous { out.append((best, t)) }
            previous = best
        }
        return out
    }
}
