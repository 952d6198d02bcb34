import Foundation

/// Analysis windows, computed in Double and stored as Float.
public enum WindowFunction: Sendable, Equatable {
    /// 0.5 − 0.5·cos(2πn/N) (periodic, like `torch.hann_window` and librosa's default) or
    /// with N − 1 (symmetric, like `scipy.signal.windows.hann(sym=True)`).
    case hann(periodic: Bool = true)
    /// 0.54 − 0.46·cos(2πn/N), periodic or symmetric as for Hann.
    case hamming(periodic: Bool = true)
    /// Kaldi's window: (0.5 − 0.5·cos(2πn/(N−1)))^0.85.
    case povey
    case rectangular

    public static let hann = WindowFunction.hann(periodic: true)
    public static let hamming = WindowFunction.hamming(periodic: true)

    /// The window's `length` coefficients.
    public func coefficients(length: Int) -> [Float] {
        precondition(length >= 0)
        if length <= 1 { return [Float](repeating: 1, count: length) }
        func cosine(_ periodic: Bool, _ a: Double, _ b: Double) -> [Float] {
            let denominator = Double(periodic ? length : length - 1)
            return (0..<length).map { Float(a - b * cos(2 * Double.pi * Double($0) / denominator)) }
        }
        switch self {
        case .hann(let periodic): return cosine(periodic, 0.5, 0.5)
        case .hamming(let periodic): return cosine(periodic, 0.54, 0.46)
        case .povey:
            let denominator = Double(length - 1)
            return (0..<length).map { Float(pow(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / denominator), 0.85)) }
        case .rectangular: return [Float](repeating: 1, count: length)
        }
    }
}
