import Foundation

/// Kaldi's `LinearResample` (as sherpa-onnx and kaldi-native-fbank resample whole inputs): each output sample is a
/// dot product of the input with a Hann-windowed sinc of `zeros` zero crossings and cut-off `cutoff` Hz, the
/// weights of each output phase precomputed (in Float, from Double times, as Kaldi stores them). The whole input
/// at once ("flush"): samples past either end count as zero, and there are as many outputs as output instants
/// strictly inside [0, input duration). Recognisers whose reference engine resamples this way use it to get the
/// same features from the same file.
public struct KaldiLinearResampler: Sendable {
    public let inputRate: Int
    public let outputRate: Int
    let firstIndex: [Int]
    let weights: [[Float]]
    let inputsPerUnit: Int
    let outputsPerUnit: Int

    /// sherpa-onnx's choice: cut-off at 99 % of the lower Nyquist frequency, 6 zero crossings.
    public init(from inputRate: Int, to outputRate: Int) {
        let cutoff = Float(0.99 * 0.5 * Double(min(inputRate, outputRate)))
        self.init(from: inputRate, to: outputRate, cutoff: cutoff, zeros: 6)
    }

    public init(from inputRate: Int, to outputRate: Int, cutoff: Float, zeros: Int) {
        precondition(inputRate > 0 && outputRate > 0 && cutoff > 0 && zeros > 0
                     && cutoff * 2 <= Float(inputRate) && cutoff * 2 <= Float(outputRate), "KaldiLinearResampler: bad rates")
        self.inputRate = inputRate
        self.outputRate = outputRate
        let base = Self.gcd(inputRate, outputRate)
        inputsPerUnit = inputRate / base
        outputsPerUnit = outputRate / base
        let windowWidth = Double(zeros) / (2.0 * Double(cutoff))
        var firstIndex: [Int] = [], weights: [[Float]] = []
        for i in 0..<outputsPerUnit {
            let outputTime = Double(i) / Double(outputRate)
            let first = Int(((outputTime - windowWidth) * Double(inputRate)).rounded(.up))
            let last = Int(((outputTime + windowWidth) * Double(inputRate)).rounded(.down))
            firstIndex.append(first)
            weights.append((0..<max(0, last - first + 1)).map { j in
                let delta = Float(Double(first + j) / Double(inputRate) - outputTime)
                return Self.filter(delta, cutoff: cutoff, zeros: zeros) / Float(inputRate)
            })
        }
        self.firstIndex = firstIndex
        self.weights = weights
    }

    /// The windowed sinc at `t` seconds from its centre (Kaldi's FilterFunc: Float in, Double arithmetic).
    static func filter(_ t: Float, cutoff: Float, zeros: Int) -> Float {
        let window: Float = Double(abs(t)) < Double(zeros) / (2.0 * Double(cutoff))
            ? Float(0.5 * (1 + cos(2 * Double.pi * Double(cutoff) / Double(zeros) * Double(t)))) : 0
        let sinc: Float = t != 0 ? Float(sin(2 * Double.pi * Double(cutoff) * Double(t)) / (Double.pi * Double(t)))
            : 2 * cutoff
        return sinc * window
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// The number of outputs for `count` inputs.
    public func outputCount(_ count: Int) -> Int {
        let tick = inputRate / Self.gcd(inputRate, outputRate) * outputRate
        let ticks = count * (tick / inputRate)
        guard ticks > 0 else { return 0 }
        let perOutput = tick / outputRate
        var last = ticks / perOutput
        if last * perOutput == ticks { last -= 1 }
        return last + 1
    }

    public func callAsFunction(_ input: [Float]) -> [Float] {
        let count = outputCount(input.count)
        var output = [Float](repeating: 0, count: count)
        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                for n in 0..<count {
                    let unit = n / outputsPerUnit, phase = n - unit * outputsPerUnit
                    let first = firstIndex[phase] + unit * inputsPerUnit
                    let w = weights[phase]
                    var sum: Float = 0
                    if first >= 0 && first + w.count <= x.count {
                        for i in 0..<w.count { sum += x[first + i] * w[i] }
                    } else {
                        for i in 0..<w.count where first + i >= 0 && first + i < x.count { sum += w[i] * x[first + i] }
                    }
                    y[n] = sum
                }
            }
        }
        return output
    }
}
