import Foundation

/// A session to record: what was done, with which model and voice, its texts and its audio.
public struct NewSession: Sendable {
    public struct Audio: Sendable {
        public var role: SessionAudioRole
        public var data: Data
        /// The file's extension (wav, mp3, …): how the stored file is named.
        public var format: String

        public init(role: SessionAudioRole, data: Data, format: String) {
            self.role = role
            self.data = data
            self.format = format
        }
    }

    public var kind: SessionKind
    public var createdAt: Date
    public var model: String?
    public var voice: String?
    public var sourceLanguage: String?
    public var targetLanguage: String?
    /// Seconds of audio heard or spoken.
    public var duration: Double?
    /// Named timings in seconds (recognition, translation, synthesis, …), stored as JSON.
    public var timings: [String: Double]
    public var texts: [SessionTextRole: String]
    public var audio: [Audio]

    public init(kind: SessionKind, createdAt: Date = Date(), model: String? = nil, voice: String? = nil,
                sourceLanguage: String? = nil, targetLanguage: String? = nil, duration: Double? = nil,
                timings: [String: Double] = [:], texts: [SessionTextRole: String] = [:], audio: [Audio] = []) {
        self.kind = kind
        self.createdAt = createdAt
        self.model = model
        self.voice = voice
        self.sourceLanguage = sourceLanguage
        self.targetLanguage = targetLanguage
        self.duration = duration
        self.timings = timings
        self.texts = texts
        self.audio = audio
    }
}

/// One line of `warble history list`: a session without its texts and audio.
public struct SessionSummary: Codable, Sendable, Equatable {
    public var id: Int64
    public var kind: SessionKind
    public var createdAt: Date
    public var model: String?
    public var voice: String?
    public var sourceLanguage: String?
    public var targetLanguage: String?
    public var duration: Double?
    /// The start of the session's main text (translation, else transcript, else source).
    public var preview: String
}

/// A recorded session with everything kept of it.
public struct StoredSession: Codable, Sendable {
    public struct Text: Codable, Sendable, Equatable {
        public var role: SessionTextRole
        public var text: String
    }

    public struct Audio: Codable, Sendable, Equatable {
        public var role: SessionAudioRole
        public var sha256: String
        public var bytes: Int64
        public var format: String
        /// Where the file lives (under `$WARBLE_HOME/history/audio/`).
        public var path: String
    }

    public var summary: SessionSummary
    public var timings: [String: Double]
    public var texts: [Text]
    public var audio: [Audio]
}
