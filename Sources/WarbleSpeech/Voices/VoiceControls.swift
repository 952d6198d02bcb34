import Foundation

/// Per-request settings that only some models have: Piper's (the speaker of a multi-speaker voice and
/// the three sampling scales that people coming from `piper` expect) and CosyVoice 3's (seed,
/// instruction, cross-lingual mode). A model refuses any it does not have, with a clear error.
public struct VoiceControls: Sendable, Hashable {
    /// A speaker of a multi-speaker voice: its name (the voice's `speaker_id_map`) or its number.
    public var speaker: String?
    /// Variation of the audio (Piper's noise_scale; the voice's own when nil).
    public var noiseScale: Double?
    /// Phoneme durations (Piper's length_scale: above 1 slower); divided by the request's rate.
    public var lengthScale: Double?
    /// Variation of the phoneme durations (Piper's noise_w).
    public var noiseW: Double?
    /// The seed of a sampling model's draws and noise (CosyVoice 3; the model's own when nil): the
    /// same seed gives the same audio.
    public var seed: UInt64?
    /// A style instruction in words, for models that take one (CosyVoice 3's instruct mode).
    public var instruction: String?
    /// Speak text in another language than the voice's clip (CosyVoice 3's cross-lingual mode: the
    /// clip's words and speech tokens stay out of the language model).
    public var crossLingual: Bool

    public init(speaker: String? = nil, noiseScale: Double? = nil, lengthScale: Double? = nil, noiseW: Double? = nil,
                seed: UInt64? = nil, instruction: String? = nil, crossLingual: Bool = false) {
        self.speaker = speaker
        self.noiseScale = noiseScale
        self.lengthScale = lengthScale
        self.noiseW = noiseW
        self.seed = seed
        self.instruction = instruction
        self.crossLingual = crossLingual
    }

    public var isEmpty: Bool { self == VoiceControls() }

    /// The ranges each scale is held to.
    public static let noiseRange = 0.0...2.0
    public static let lengthRange = 0.1...10.0
    /// The longest instruction, in characters.
    public static let instructionLimit = 500

    /// Whether only Piper's settings (speaker and scales) are given.
    public var isPiperOnly: Bool { seed == nil && instruction == nil && !crossLingual }

    /// Whether none of Piper's settings (speaker and scales) is given.
    public var hasNoPiperSettings: Bool { speaker == nil && noiseScale == nil && lengthScale == nil && noiseW == nil }

    /// Throws when a scale is outside its range or not a number.
    public func validate() throws(ModelError) {
        for (name, value, range) in [("noise scale", noiseScale, Self.noiseRange), ("noise w", noiseW, Self.noiseRange),
                                     ("length scale", lengthScale, Self.lengthRange)] {
            if let value, !(value.isFinite && range.contains(value)) {
                throw ModelError(.badInput, "the \(name) must be from \(range.lowerBound) to \(range.upperBound), got \(value)")
            }
        }
        if let instruction {
            let trimmed = instruction.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw ModelError(.badInput, "the instruction is empty: say how to speak, or leave it out") }
            guard instruction.count <= Self.instructionLimit else {
                throw ModelError(.badInput, "the instruction has \(instruction.count) characters; at most \(Self.instructionLimit)")
            }
            guard !instruction.contains("<|") else {
                throw ModelError(.badInput, "the instruction may not hold special tokens (<|...|>)")
            }
            guard !crossLingual else {
                throw ModelError(.badInput, "an instruction and cross-lingual mode cannot be combined: give one of them")
            }
        }
    }

    /// Part of a cache key: empty for the defaults.
    public var cacheKey: String {
        guard !isEmpty else { return "" }
        var key = "#\(speaker ?? "")/\(noiseScale.map { "\($0)" } ?? "")/\(lengthScale.map { "\($0)" } ?? "")/\(noiseW.map { "\($0)" } ?? "")"
        if !isPiperOnly {
            // The instruction's text goes in as JSON so that no separator inside it can make two keys equal.
            let quoted = instruction.map { String(decoding: (try? JSONEncoder().encode($0)) ?? Data(), as: UTF8.self) } ?? "-"
            key += "/seed \(seed.map { "\($0)" } ?? "-")/\(crossLingual ? "x" : "")/\(quoted)"
        }
        return key
    }
}

/// Long lists in messages: the first few and how many more.
public enum TextList {
    public static func shortened(_ items: [String], showing count: Int = 12) -> String {
        items.count <= count ? items.joined(separator: ", ")
                             : items.prefix(count).joined(separator: ", ") + " and \(items.count - count) more"
    }
}
