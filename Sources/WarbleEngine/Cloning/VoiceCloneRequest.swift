import Foundation
import WarbleSpeech

/// What `warble voice add` and `POST /v1/audio/voices` ask of the engine.
public struct VoiceCloneRequest: Sendable {
    /// The new voice's id.
    public var name: String
    /// The clip's file, in any format libsndfile reads.
    public var clip: Data
    /// How to name the clip in messages (its path, or the uploaded file's name).
    public var clipName: String
    /// The model id or family to clone for (nil: the first installed model that clones, else Kokoro).
    public var model: String?
    /// What the clip says, when known.
    public var transcript: String?
    /// Whether to find out what the clip says with speech recognition (when no transcript is given).
    public var transcribe: Bool
    /// The note on the right to use this voice, kept in the profile.
    public var consent: String?
    /// BCP 47 language of the voice (nil: the model's).
    public var language: String?
    /// How a voice is searched for (Kokoro's).
    public var search: VoiceSearch.Options
    /// Whether a voice of the same name is replaced.
    public var replacing: Bool
    /// Whether a Kokoro search that found nothing closer to the clip than a stock voice saves that stock voice
    /// under the new name (otherwise it is refused, and the search can go on with a larger budget).
    public var keepStock: Bool

    public init(name: String, clip: Data, clipName: String, model: String? = nil, transcript: String? = nil,
                transcribe: Bool = false, consent: String? = nil, language: String? = nil,
                search: VoiceSearch.Options = .init(), replacing: Bool = false, keepStock: Bool = false) {
        self.name = name
        self.clip = clip
        self.clipName = clipName
        self.model = model
        self.transcript = transcript
        self.transcribe = transcribe
        self.consent = consent
        self.language = language
        self.search = search
        self.replacing = replacing
        self.keepStock = keepStock
    }
}

/// What happens while a voice is cloned, in order.
public enum VoiceCloneEvent: Sendable {
    /// The clip was read: the file's length, the speech kept, its level (dBFS), whether it was cut.
    case clip(fileSeconds: Double, speechSeconds: Double, level: Double, shortened: Bool)
    /// Speech recognition heard this in the clip.
    case transcript(String)
    /// A Kokoro voice search started from this stock voice, in a space of this many directions.
    case searchStarted(model: String, dimensions: Int, resumed: Bool)
    case searching(VoiceSearch.Progress)
}

/// A cloned voice, kept in the library.
public struct VoiceCloneResult: Sendable {
    public var profile: VoiceProfile
    /// The search's account, for a Kokoro voice.
    public var search: VoiceSearch.Result?
}

/// How close a library voice's speech is to its source clip, on sentences no search spoke.
public struct VoiceCheck: Sendable, Codable {
    public struct Score: Sendable, Codable {
        public var voice: String
        /// Mean cosine between the speech's speaker embeddings and the clip's.
        public var similarity: Double
    }

    public var voice: Score
    /// The stock voices, most similar first.
    public var stock: [Score]
    public var sentences: [String]
}
