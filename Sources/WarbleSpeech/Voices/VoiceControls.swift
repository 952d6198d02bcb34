/// Settings of VITS-style models (Piper) that people coming from `piper` expect: the speaker of a
/// multi-speaker voice and the three sampling scales. Models without them refuse any that is set.
public struct VoiceControls: Sendable, Hashable {
    /// A speaker of a multi-speaker voice: its name (the voice's `speaker_id_map`) or its number.
    public var speaker: String?
    /// Variation of the audio (Piper's noise_scale; the voice's own when nil).
    public var noiseScale: Double?
    /// Phoneme durations (Piper's length_scale: above 1 slower); divided by the request's rate.
    public var lengthScale: Double?
    /// Variation of the phoneme durations (Piper's noise_w).
    public var noiseW: Double?

    public init(speaker: String? = nil, noiseScale: Double? = nil, lengthScale: Double? = nil, noiseW: Double? = nil) {
        self.speaker = speaker
        self.noiseScale = noiseScale
        self.lengthScale = lengthScale
        self.noiseW = noiseW
    }

    public var isEmpty: Bool { self == VoiceControls() }

    /// The ranges each scale is held to.
    public static let noiseRange = 0.0...2.0
    public static let lengthRange = 0.1...10.0

    /// Throws when a scale is outside its range or not a number.
    public func validate() throws(ModelError) {
        for (name, value, range) in [("noise scale", noiseScale, Self.noiseRange), ("noise w", noiseW, Self.noiseRange),
                                     ("length scale", lengthScale, Self.lengthRange)] {
            if let value, !(value.isFinite && range.contains(value)) {
                throw ModelError(.badInput, "the \(name) must be from \(range.lowerBound) to \(range.upperBound), got \(value)")
            }
        }
    }

    /// Part of a cache key: empty for the defaults.
    public var cacheKey: String {
        isEmpty ? "" : "#\(speaker ?? "")/\(noiseScale.map { "\($0)" } ?? "")/\(lengthScale.map { "\($0)" } ?? "")/\(noiseW.map { "\($0)" } ?? "")"
    }
}

/// Long lists in messages: the first few and how many more.
public enum TextList {
    public static func shortened(_ items: [String], showing count: Int = 12) -> String {
        items.count <= count ? items.joined(separator: ", ")
                             : items.prefix(count).joined(separator: ", ") + " and \(items.count - count) more"
    }
}
