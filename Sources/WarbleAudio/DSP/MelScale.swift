import Foundation

/// Hz ↔ mel conversions.
public enum MelScale: Sendable, Equatable {
    /// Slaney's Auditory Toolbox scale: linear below 1 kHz, logarithmic above (librosa's default).
    case slaney
    /// 2595·log10(1 + f/700) (HTK, `librosa htk=True`).
    case htk
    /// 1127·ln(1 + f/700) (Kaldi; the HTK scale in natural log form).
    case kaldi

    public func mel(fromHz hz: Double) -> Double {
        switch self {
        case .htk: return 2595 * log10(1 + hz / 700)
        case .kaldi: return 1127 * log(1 + hz / 700)
        case .slaney:
            let linear = hz / (200.0 / 3)
            return hz >= 1000 ? 15 + log(hz / 1000) / (log(6.4) / 27) : linear
        }
    }

    public func hz(fromMel mel: Double) -> Double {
        switch self {
        case .htk: return 700 * (pow(10, mel / 2595) - 1)
        case .kaldi: return 700 * (exp(mel / 1127) - 1)
        case .slaney:
            return mel >= 15 ? 1000 * exp((log(6.4) / 27) * (mel - 15)) : mel * (200.0 / 3)
        }
    }
}
