import Foundation

/// A voice uploaded to `POST /v1/audio/voices`, to be cloned and kept in the voice library.
public struct VoiceUpload: Sendable {
    public var name: String
    public var clip: Data
    /// The uploaded file's name (for messages).
    public var clipName: String
    public var model: String?
    public var transcript: String?
    public var transcribe: Bool
    public var consent: String?
    /// Kokoro: the search's time, seconds.
    public var budgetSeconds: Double
    public var seed: UInt64
    /// Kokoro: save a stock voice under the new name when the search beat none (otherwise 400, nothing saved).
    public var keepStock = false
    /// NeuTTS: the clip is given as its NeuCodec codes (`clip` holds them: .npy or raw int32).
    public var isCodes = false
}

/// What `POST /v1/audio/voices` answers.
public struct VoiceUploadResult: Sendable, Encodable {
    public var id: String
    public var object = "voice"
    public var model: String
    /// Cosine similarity of the voice's speech to the clip (speaker embeddings), when measured.
    public var similarity: Double?
    /// Kokoro: the stock voice the search started from, its similarity, and the candidates spoken.
    public var startVoice: String?
    public var startSimilarity: Double?
    public var candidates: Int?

    public init(id: String, model: String, similarity: Double? = nil, startVoice: String? = nil,
                startSimilarity: Double? = nil, candidates: Int? = nil) {
        self.id = id
        self.model = model
        self.similarity = similarity
        self.startVoice = startVoice
        self.startSimilarity = startSimilarity
        self.candidates = candidates
    }

    enum CodingKeys: String, CodingKey {
        case id, object, model, similarity, candidates
        case startVoice = "start_voice"
        case startSimilarity = "start_similarity"
    }
}

/// How a clone is getting on, sent as `voice.progress` events when `POST /v1/audio/voices` is asked for
/// `text/event-stream`: the clip read, what was heard in it, and a voice search's round by round.
public struct VoiceCloneProgress: Sendable, Encodable, Equatable {
    public enum Stage: String, Sendable, Encodable {
        /// The clip was read and its speech kept.
        case clip
        /// Speech recognition heard the clip's words.
        case transcript
        /// A voice search started (or resumed from its saved state).
        case searchStarted = "search_started"
        /// A search round ended (`fraction` of the budget used, `similarity` the best so far).
        case searching
        /// The search speaks its finalists and hears them (`fraction`: finalists judged).
        case choosing
    }

    public var type = "voice.progress"
    public var stage: Stage
    /// What happened, in a sentence for a person.
    public var message: String
    /// How far along, 0…1, when it can be told.
    public var fraction: Double?
    /// The best cosine similarity to the clip so far (a search).
    public var similarity: Double?

    public init(stage: Stage, message: String, fraction: Double? = nil, similarity: Double? = nil) {
        self.stage = stage
        self.message = message
        self.fraction = fraction.map { min(1, max(0, $0)) }
        self.similarity = similarity
    }
}

/// The voice library as the server changes it (`Engine`'s library in `warble serve`).
public protocol VoiceLibraryBackend: Sendable {
    /// Clones `upload`'s voice and keeps it, telling `progress` how it goes; cancelling the calling task stops the work.
    func addVoice(_ upload: VoiceUpload, progress: @escaping @Sendable (VoiceCloneProgress) -> Void) async throws
        -> VoiceUploadResult
    /// Removes library voice `id` (`ModelError(.unknownVoice, …)` when there is none).
    func removeVoice(_ id: String) async throws
}
