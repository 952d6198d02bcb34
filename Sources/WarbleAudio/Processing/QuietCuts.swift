/// Cuts long audio into pieces no longer than a maximum, each cut in the quietest stretch near the end of
/// the piece (for models that read a whole piece at once and cannot take arbitrarily long input).
public enum QuietCuts {
    /// Sample ranges covering `samples` in order. Audio no longer than `maximum` samples is one piece;
    /// otherwise each cut falls in the middle of the quietest `window`-sample stretch (least energy) of the
    /// last `search` samples before the maximum.
    public static func pieces(_ samples: [Float], maximum: Int, search: Int, window: Int) -> [Range<Int>] {
        precondition(maximum > 0 && window > 0 && search >= window && search <= maximum, "QuietCuts: bad sizes")
        var out: [Range<Int>] = []
        var start = 0
        while samples.count - start > maximum {
            let from = start + maximum - search, to = start + maximum
            var best = to, bestEnergy = Float.infinity
            samples.withUnsafeBufferPointer { s in
                var position = from
                while position + window <= to {
                    var energy: Float = 0
                    for i in position..<(position + window) { energy += s[i] * s[i] }
                    if energy < bestEnergy { bestEnergy = energy; best = position + window / 2 }
                    position += window / 2
                }
            }
            out.append(start..<best)
            start = best
        }
        if start < samples.count || out.isEmpty { out.append(start..<samples.count) }
        return out
    }
}
