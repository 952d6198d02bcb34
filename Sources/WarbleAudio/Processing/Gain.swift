import Foundation

/// Amplitude ↔ decibel conversions (dBFS: 0 dB = amplitude 1).
public enum AudioLevel {
    public static func decibels(fromAmplitude amplitude: Double) -> Double { 20 * log10(amplitude) }
    public static func amplitude(fromDecibels decibels: Double) -> Double { pow(10, decibels / 20) }
}

extension AudioBuffer {
    /// The largest absolute sample over all channels.
    public var peak: Float {
        channels.reduce(0) { worst, channel in channel.reduce(worst) { max($0, abs($1)) } }
    }

    /// Root-mean-square level over all channels.
    public var rms: Float {
        let count = frameCount * channelCount
        guard count > 0 else { return 0 }
        let sum = channels.reduce(0.0) { total, channel in channel.reduce(total) { $0 + Double($1) * Double($1) } }
        return Float((sum / Double(count)).squareRoot())
    }

    /// Every sample multiplied by `factor`.
    public func scaled(by factor: Float) -> AudioBuffer {
        var copy = self
        copy.modifyChannels { channel in
            channel.withUnsafeMutableBufferPointer { for i in $0.indices { $0[i] *= factor } }
        }
        return copy
    }

    /// Gain in dB (positive louder).
    public func applyingGain(decibels: Double) -> AudioBuffer {
        scaled(by: Float(AudioLevel.amplitude(fromDecibels: decibels)))
    }

    /// Scaled so that the peak is `target` dBFS (silence is returned unchanged).
    public func normalizedPeak(to target: Double = -1) -> AudioBuffer {
        let current = peak
        guard current > 0 else { return self }
        return scaled(by: Float(AudioLevel.amplitude(fromDecibels: target)) / current)
    }

    /// Samples limited to [-limit, limit] (hard clipping; NaN becomes 0).
    public func clipped(to limit: Float = 1) -> AudioBuffer {
        var copy = self
        copy.modifyChannels { channel in
            channel.withUnsafeMutableBufferPointer { v in
                for i in v.indices { v[i] = v[i].isNaN ? 0 : min(max(v[i], -limit), limit) }
            }
        }
        return copy
    }
}
