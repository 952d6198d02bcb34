import Foundation

/// A voice kept in the voice library: who it is, the model that speaks it, the conditioning that
/// model needs, and where it came from (the source clip's hash and the consent note given when it
/// was added). Written as one JSON file with a format version and a checksum (`VoiceProfileFile`).
public struct VoiceProfile: Sendable, Equatable, Codable {
    /// Where a cloned voice came from.
    public struct Source: Sendable, Equatable, Codable {
        /// SHA-256 of the clip's file, hex.
        public var clipSHA256: String
        /// Length of the clip used, in seconds.
        public var seconds: Double
        /// What the clip says, when known.
        public var transcript: String?
        /// The note given at `voice add` about the right to use this voice.
        public var consent: String?
        /// The clip's speaker embedding (d-vector, unit length), to measure how close the voice is to it.
        public var speakerEmbedding: [Float]?

        public init(clipSHA256: String, seconds: Double, transcript: String? = nil, consent: String? = nil,
                    speakerEmbedding: [Float]? = nil) {
            self.clipSHA256 = clipSHA256
            self.seconds = seconds
            self.transcript = transcript
            self.consent = consent
            self.speakerEmbedding = speakerEmbedding
        }
    }

    /// Unique among the voices (stock and user): letters, digits, `-`, `_`, `.`, `:`.
    public var id: String
    public var displayName: String
    /// BCP 47 language, e.g. "en-US".
    public var language: String
    /// The model id that speaks it.
    public var model: String
    /// That model's family ("kokoro", "cosyvoice3", ...).
    public var family: String
    public var gender: String?
    public var created: Date
    public var source: Source?
    public var conditioning: VoiceConditioning

    public init(id: String, displayName: String? = nil, language: String, model: String, family: String,
                gender: String? = nil, created: Date = Date(), source: Source? = nil, conditioning: VoiceConditioning) {
        self.id = id
        self.displayName = displayName ?? id
        self.language = language
        self.model = model
        self.family = family
        self.gender = gender
        self.created = created
        self.source = source
        self.conditioning = conditioning
    }

    /// Whether `id` is usable as a voice id (and a directory name): 1–64 of letters, digits, `-`, `_`,
    /// `.`, `:`, not starting with a dot.
    public static func isValidID(_ id: String) -> Bool {
        guard (1...64).contains(id.count), !id.hasPrefix(".") else { return false }
        return id.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "-_.:".unicodeScalars.contains($0)
        }
    }

    /// How the voice appears in voice lists (`sampleRate`: its model's).
    public func voiceDescription(sampleRate: Int) -> VoiceDescription {
        VoiceDescription(id: id, displayName: displayName, language: language, model: model, sampleRate: sampleRate, gender: gender)
    }
}
