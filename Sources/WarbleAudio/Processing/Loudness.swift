import CEbur128

/// Loudness measurement (ITU-R BS.1770-4 / EBU R 128) with libebur128.
public enum Loudness {
    /// Integrated (gated) loudness in LUFS; `-infinity` for silence or audio shorter than one
    /// 400 ms block. Channels map to libebur128's defaults (L, R, C, LFE unused, Ls, Rs).
    public static func integrated(_ buffer: AudioBuffer) throws(LoudnessError) -> Double {
        let state = try Meter(buffer, mode: Int32(EBUR128_MODE_I.rawValue))
        var lufs = 0.0
        try state.check(ebur128_loudness_global(state.pointer, &lufs), "ebur128_loudness_global")
        return lufs
    }

    /// The largest absolute inter-sample (true) peak over all channels, as a linear amplitude
    /// (4× oversampling, as BS.1770-4 specifies).
    public static func truePeak(_ buffer: AudioBuffer) throws(LoudnessError) -> Double {
        let state = try Meter(buffer, mode: Int32(EBUR128_MODE_TRUE_PEAK.rawValue))
        var peak = 0.0
        for c in 0..<buffer.channelCount {
            var value = 0.0
            try state.check(ebur128_true_peak(state.pointer, UInt32(c), &value), "ebur128_true_peak")
            peak = max(peak, value)
        }
        return peak
    }

    /// One libebur128 state fed with a whole buffer.
    private final class Meter {
        let pointer: UnsafeMutablePointer<ebur128_state>

        init(_ buffer: AudioBuffer, mode: Int32) throws(LoudnessError) {
            guard buffer.sampleRate >= 16 && buffer.sampleRate <= 2_822_400 else {
                throw .unsupportedSampleRate(buffer.sampleRate)
            }
            guard let state = ebur128_init(UInt32(buffer.channelCount), UInt(buffer.sampleRate), mode) else {
                throw .libebur128(call: "ebur128_init", code: -1)
            }
            pointer = state
            let interleaved = buffer.interleaved()
            let code = interleaved.withUnsafeBufferPointer {
                ebur128_add_frames_float(state, $0.baseAddress, buffer.frameCount)
            }
            try check(code, "ebur128_add_frames_float")
        }

        deinit {
            var state: UnsafeMutablePointer<ebur128_state>? = pointer
            ebur128_destroy(&state)
        }

        func check(_ code: Int32, _ call: String) throws(LoudnessError) {
            guard code == Int32(EBUR128_SUCCESS.rawValue) else { throw .libebur128(call: call, code: Int(code)) }
        }
    }
}

public enum LoudnessError: Error, Equatable, Sendable, CustomStringConvertible {
    case unsupportedSampleRate(Int)
    case libebur128(call: String, code: Int)
    /// Loudness normalisation of audio with no measurable loudness (silence, or under 400 ms).
    case unmeasurable

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate):
            "cannot measure loudness at \(rate) Hz: 16 Hz to 2.8 MHz are accepted"
        case let .libebur128(call, code):
            "libebur128 \(call) failed with code \(code)"
        case .unmeasurable:
            "audio has no measurable loudness (silent or shorter than one 400 ms block): nothing to normalise"
        }
    }
}

extension AudioBuffer {
    /// Scaled so that its integrated loudness is `target` LUFS (e.g. −23 for EBU R 128 broadcast,
    /// −27 for Chatterbox's reference clips). With `peakCeiling` (dBFS) the gain is lowered if the
    /// sample peak would exceed it.
    public func normalizedLoudness(to target: Double, peakCeiling: Double? = nil) throws(LoudnessError) -> AudioBuffer {
        let measured = try Loudness.integrated(self)
        guard measured.isFinite else { throw .unmeasurable }
        var gain = target - measured
        if let ceiling = peakCeiling, peak > 0 {
            gain = min(gain, ceiling - AudioLevel.decibels(fromAmplitude: Double(peak)))
        }
        return applyingGain(decibels: gain)
    }
}
