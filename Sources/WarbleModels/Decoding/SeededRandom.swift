/// SplitMix64 (Steele, Lea and Flood 2014; the seeding generator of xoshiro): a small, fast,
/// deterministic generator, so that sampling with the same seed gives the same tokens on every
/// machine. Per request: a value that dies with it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) from the top 53 bits of the next value.
    public mutating func uniform() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
