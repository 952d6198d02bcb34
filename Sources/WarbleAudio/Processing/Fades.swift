import Foundation

/// The shape of a fade.
public enum FadeCurve: Sendable, Equatable {
    /// Gain rises linearly (a crossfade with it dips 3 dB for uncorrelated audio, none for identical audio).
    case linear
    /// sin/cos gains whose powers sum to one: constant loudness across a crossfade of uncorrelated audio.
    case equalPower
    /// 0.5 − 0.5 cos(πt): starts and ends flat (no click at either end); the streaming synthesizer's joins.
    case raisedCosine

    /// Fade-in gain at position `t` in [0, 1]; the fade-out gain at `t` is `gain(1 - t)`.
    @inline(__always)
    func gain(_ t: Double) -> Float {
        switch self {
        case .linear: Float(t)
        case .equalPower: Float(sin(t * Double.pi / 2))
        case .raisedCosine: Float(0.5 - 0.5 * cos(Double.pi * t))
        }
    }
}

/// Fades and gain over mono samples in place (what a stream of chunks needs: no buffer copies).
public enum MonoSamples {
    /// Gain rising from 0 over the first `frames` samples.
    public static func fadeIn(_ samples: inout [Float], frames: Int, curve: FadeCurve = .linear) {
        let n = min(max(frames, 0), samples.count)
        for i in 0..<n { samples[i] *= curve.gain(Double(i) / Double(n)) }
    }

    /// Gain falling to 0 over the last `frames` samples.
    public static func fadeOut(_ samples: inout [Float], frames: Int, curve: FadeCurve = .linear) {
        let n = min(max(frames, 0), samples.count)
        let start = samples.count - n
        for i in 0..<n { samples[start + i] *= curve.gain(Double(n - 1 - i) / Double(n)) }
    }

    /// Every sample times `gain` (nothing to do for 1).
    public static func applyGain(_ samples: inout [Float], _ gain: Float) {
        guard gain != 1 else { return }
        for i in samples.indices { samples[i] *= gain }
    }
}

extension AudioBuffer {
    /// Gain rising from 0 over the first `frames` frames (e.g. Chatterbox's 960-sample fade-in).
    public func fadedIn(frames: Int, curve: FadeCurve = .linear) -> AudioBuffer {
        let n = min(max(frames, 0), frameCount)
        var copy = self
        copy.modifyChannels { channel in MonoSamples.fadeIn(&channel, frames: n, curve: curve) }
        return copy
    }

    /// Gain falling to 0 over the last `frames` frames.
    public func fadedOut(frames: Int, curve: FadeCurve = .linear) -> AudioBuffer {
        let n = min(max(frames, 0), frameCount)
        var copy = self
        copy.modifyChannels { channel in MonoSamples.fadeOut(&channel, frames: n, curve: curve) }
        return copy
    }

    /// `first` then `second`, overlapped by `frames` frames in which `first` fades out while `second`
    /// fades in (equal-power by default). The overlap is clamped to the shorter buffer. The result has
    /// first.frameCount + second.frameCount − overlap frames.
    public static func crossfading(
        _ first: AudioBuffer, _ second: AudioBuffer, frames: Int, curve: FadeCurve = .equalPower
    ) throws(AudioBufferError) -> AudioBuffer {
        guard second.sampleRate == first.sampleRate else {
            throw .sampleRateMismatch(second.sampleRate, expected: first.sampleRate)
        }
        guard second.channelCount == first.channelCount else {
            throw .channelCountMismatch(second.channelCount, expected: first.channelCount)
        }
        let overlap = min(max(frames, 0), first.frameCount, second.frameCount)
        var result = first
        let start = first.frameCount - overlap
        for c in 0..<first.channelCount {
            let incoming = second.channels[c]
            for i in 0..<overlap {
                let t = (Double(i) + 0.5) / Double(overlap)
                result.channels[c][start + i] = result.channels[c][start + i] * curve.gain(1 - t) + incoming[i] * curve.gain(t)
            }
            result.channels[c].append(contentsOf: incoming[overlap...])
        }
        return result
    }
}
