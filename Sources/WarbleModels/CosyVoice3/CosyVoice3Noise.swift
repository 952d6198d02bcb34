import Foundation
import WarbleSpeech

/// The flow's starting noise `[1, 80, frames]`. The reference draws one fixed table and takes its
/// first T frames each run, so that streaming chunks (which re-run the flow over more frames) start
/// from the same noise: a table given as it is (tests inject the reference's), or standard normal
/// values from a seeded SplitMix64, drawn frame by frame so that a longer run extends a shorter one.
public struct CosyVoice3Noise: Sendable, Equatable {
    enum Source: Sendable, Equatable {
        case table([Float], frames: Int)
        case seeded(UInt64)
    }

    let source: Source
    public static let channels = 80

    /// `values` laid out `[1, 80, frames]` (channel-major, as the reference's tensor).
    public init(table values: [Float], frames: Int) {
        precondition(values.count == Self.channels * frames, "a noise table of \(frames) frames holds \(Self.channels * frames) values")
        source = .table(values, frames: frames)
    }

    public init(seed: UInt64) {
        source = .seeded(seed)
    }

    /// The first `frames` frames, `[80, frames]` channel-major.
    public func values(frames: Int) throws -> [Float] {
        switch source {
        case .table(let table, let available):
            guard frames <= available else {
                throw ModelError(.badInput, "the flow needs \(frames) frames of noise; the table holds \(available)")
            }
            var out = [Float](repeating: 0, count: Self.channels * frames)
            for c in 0..<Self.channels {
                for t in 0..<frames { out[c * frames + t] = table[c * available + t] }
            }
            return out
        case .seeded(let seed):
            var generator = SplitMix64(seed: seed)
            var out = [Float](repeating: 0, count: Self.channels * frames)
            for t in 0..<frames {
                for c in stride(from: 0, to: Self.channels, by: 2) {
                    // Box–Muller: two normal values from two uniforms.
                    let u1 = max(generator.uniform(), 1e-300)
                    let u2 = generator.uniform()
                    let radius = (-2 * log(u1)).squareRoot()
                    out[c * frames + t] = Float(radius * cos(2 * .pi * u2))
                    out[(c + 1) * frames + t] = Float(radius * sin(2 * .pi * u2))
                }
            }
            return out
        }
    }
}
