import Foundation

/// Speeds speech up (or slows it down) without changing its pitch, as it streams: WSOLA (waveform
/// similarity overlap-add). Each output frame is a Hann-windowed piece of the input taken near where
/// the speed puts it, shifted within a small tolerance to the place most like the natural continuation
/// of the previous piece, and overlap-added at half a frame.
///
/// Used where a model cannot speak as fast as asked (its one-frame minimum per phoneme): the model
/// speaks at its fastest and this does the rest. Not `Sendable`: it keeps the stream's state.
public final class TimeStretcher {
    /// Input frames per output frame (2: twice as fast).
    public let speed: Double
    private let frame: Int
    private let hop: Int
    private let tolerance: Int
    private let window: [Float]
    private var input: [Float] = []
    /// Input frames dropped from the front of `input` so far.
    private var dropped = 0
    /// Output frames made so far (the next output frame is number `made`).
    private var made = 0
    /// Where the previous piece was taken from (absolute input position).
    private var previous: Int?
    /// The second half of the last windowed piece, waiting for the next one to overlap it.
    private var tail: [Float]

    /// `sampleRate` sets the frame (about 25 ms) and the search tolerance (about 6 ms).
    public init(speed: Double, sampleRate: Int) {
        precondition(speed.isFinite && speed > 0, "the speed must be a positive number")
        self.speed = speed
        var frame = max(16, sampleRate / 40)
        frame += frame & 1
        self.frame = frame
        hop = frame / 2
        tolerance = max(1, sampleRate / 160)
        window = (0..<frame).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(frame))) }
        tail = [Float](repeating: 0, count: frame / 2)
    }

    /// The frames a whole stream of `inputFrames` comes out as (everything `process` and `finish` return),
    /// known before any of it is given: one hop per piece taken from before the input's end, plus the last
    /// piece's second half.
    public func outputFrames(forInput inputFrames: Int) -> Int {
        var pieces = 0
        while Int((Double(pieces) * Double(hop) * speed).rounded()) < inputFrames { pieces += 1 }
        return pieces * hop + hop
    }

    /// Output for `samples`, as far as the input allows.
    public func process(_ samples: [Float]) -> [Float] {
        input += samples
        return run(final: false)
    }

    /// The rest of the output, the end of the input padded with silence.
    public func finish() -> [Float] {
        var out = run(final: true)
        out += tail
        tail = [Float](repeating: 0, count: hop)
        return out
    }

    private func run(final: Bool) -> [Float] {
        var out: [Float] = []
        let available = dropped + input.count
        while true {
            let nominal = Int((Double(made) * Double(hop) * speed).rounded())
            if final ? nominal >= available : nominal + tolerance + frame > available { break }
            let start = bestStart(near: nominal)
            var piece = [Float](repeating: 0, count: frame)
            for i in 0..<frame {
                let at = start + i - dropped
                piece[i] = (at >= 0 && at < input.count ? input[at] : 0) * window[i]
            }
            for i in 0..<hop { out.append(tail[i] + piece[i]) }
            tail = Array(piece[hop...])
            previous = start
            made += 1
        }
        // Keep what later pieces may still read: from the earliest place the next search can reach.
        let next = Int((Double(made) * Double(hop) * speed).rounded())
        let keepFrom = min(next - tolerance, (previous ?? 0) + hop) - dropped
        if keepFrom > 0 {
            let cut = min(keepFrom, input.count)
            input.removeFirst(cut)
            dropped += cut
        }
        return out
    }

    /// The start within ±tolerance of `nominal` whose frame best matches the continuation of the
    /// previous piece (the input right after where it was taken, one hop on).
    private func bestStart(near nominal: Int) -> Int {
        guard let previous else { return nominal }
        let natural = previous + hop
        var best = nominal
        var bestScore = -Float.infinity
        let low = max(dropped, nominal - tolerance)
        let high = max(low, min(nominal + tolerance, dropped + input.count - frame))
        for candidate in low...high {
            var score: Float = 0
            var energy: Float = 1e-9
            for i in stride(from: 0, to: hop, by: 2) {
                let a = value(at: candidate + i)
                score += a * value(at: natural + i)
                energy += a * a
            }
            let normalised = score / energy.squareRoot()
            if normalised > bestScore {
                bestScore = normalised
                best = candidate
            }
        }
        return best
    }

    private func value(at position: Int) -> Float {
        let at = position - dropped
        return at >= 0 && at < input.count ? input[at] : 0
    }
}
