/// `manifest.json` of an installed model: what it is, where it came from, its licence and the
/// checksum of every file. Written by the set-up's installers; read by the model store.
public struct ModelManifest: Sendable, Equatable, Codable {
    public struct File: Sendable, Equatable, Codable {
        /// Path relative to the model's directory.
        public var path: String
        public var sha256: String
        public var bytes: Int

        public init(path: String, sha256: String, bytes: Int) {
            self.path = path
            self.sha256 = sha256
            self.bytes = bytes
        }
    }

    /// A voice the model offers.
    public struct Voice: Sendable, Equatable, Codable {
        public var id: String
        public var language: String
        public var gender: String?
        public var displayName: String?

        public init(id: String, language: String, gender: String? = nil, displayName: String? = nil) {
            self.id = id
            self.language = language
            self.gender = gender
            self.displayName = displayName
        }
    }

    /// Unique id, also the directory name under `models/`.
    public var id: String
    /// The pipeline family that runs it ("piper", "kokoro", "whisper", ...).
    public var family: String
    public var displayName: String?
    /// SPDX-style licence of the weights.
    public var licence: String
    /// Where the files came from.
    public var source: String
    /// Output (TTS) or input (ASR) sample rate in Hz.
    public var sampleRate: Int
    /// BCP-47-ish language codes.
    public var languages: [String]
    public var voices: [Voice]
    public var files: [File]
    /// Family-specific settings.
    public var config: JSONValue?
    /// For a model made from others on install: what it was made from, so that a pull can tell an
    /// install of the same source files apart (and the int8 installer, the f32 model it quantised).
    public var derivedFrom: Derivation?
    /// The tool that made it (a pull's conversion).
    public var converter: String?
    /// The sha256 of that tool's files when it ran: a pull with other tools installs the model again.
    public var converterVersion: String?
    /// What the install could not do and the user should know (a Piper voice left unsplit, say).
    public var notes: [String]?

    /// `{"id": the model it came from (if one), "files": {source file: sha256}}`.
    public struct Derivation: Sendable, Equatable, Codable {
        public var id: String?
        public var files: [String: String]

        public init(id: String? = nil, files: [String: String]) {
            self.id = id
            self.files = files
        }
    }

    public init(id: String, family: String, displayName: String? = nil, licence: String, source: String, sampleRate: Int,
                languages: [String], voices: [Voice] = [], files: [File], config: JSONValue? = nil) {
        self.id = id
        self.family = family
        self.displayName = displayName
        self.licence = licence
        self.source = source
        self.sampleRate = sampleRate
        self.languages = languages
        self.voices = voices
        self.files = files
        self.config = config
    }

    /// Total size of the model's files.
    public var totalBytes: Int { files.reduce(0) { $0 + $1.bytes } }
}
