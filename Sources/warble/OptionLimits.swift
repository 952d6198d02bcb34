import ArgumentParser

/// Bounds shared by the commands' numeric options, so that no value typed on a command line can ask
/// for more threads, beams or memory than makes sense (or overflow on its way there).
enum OptionLimits {
    /// ONNX Runtime threads per run (0: automatic).
    static let threads = 0...256
    /// Whisper's beam width.
    static let beamSize = 1...32
    /// The engine's cache of rendered sentences, in MiB.
    static let cacheMB = 0...65_536

    static func check(threads: Int) throws {
        guard Self.threads.contains(threads) else {
            throw ValidationError("--threads must be from 0 (automatic) to \(Self.threads.upperBound), got \(threads)")
        }
    }

    static func check(beamSize: Int) throws {
        guard Self.beamSize.contains(beamSize) else {
            throw ValidationError("--beam-size must be from 1 (greedy) to \(Self.beamSize.upperBound), got \(beamSize)")
        }
    }
}

extension OptionLimits {
    /// Speaking rates every family honours.
    static let rate = 0.25...4

    static func check(rate: Double, name: String) throws {
        guard rate.isFinite, rate > 0 else {
            throw ValidationError("\(name) must be a positive factor (1 is normal speed, 2 twice as fast), got \(rate)")
        }
        guard Self.rate.contains(rate) else {
            throw ValidationError("\(name) must be between \(Self.rate.lowerBound) and \(Self.rate.upperBound), got \(rate)")
        }
    }
}
