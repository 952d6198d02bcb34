import WarbleAudio

/// What the services (the HTTP server, the speech-dispatcher module) need to speak: the voices, and a
/// synthesis stream. The engine is the real one; the adapters' tests use small fakes. The executables
/// hand the engine to the services, which therefore never link a model backend.
public protocol SynthesisService: Sendable {
    /// Every voice, stock and from the voice library.
    func installedVoices() async -> [VoiceDescription]
    /// The id of the voice a request without one gets.
    func defaultVoiceID() async -> String?
    /// The voice `id` (the default for nil); throws `ModelError(.unknownVoice, …)` when unknown.
    func voice(_ id: String?) async throws -> VoiceDescription
    /// Speaks `request`, streaming chunks; cancelling the consuming task stops the work.
    func synthesize(_ request: SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error>
    /// The same as a relay, for consumers that pull from more than one task. The default relays the stream.
    func relay(_ request: SynthesisRequest) -> SynthesisRelay
    /// `relay(_:)` for a voice the caller resolved already with `voice(_:)` (the request names it), so that it
    /// is not looked up again; `observer` sees the chunks (`SynthesisRelay.Observer`). The default looks the
    /// voice up again.
    func relay(_ request: SynthesisRequest, voice: VoiceDescription, observer: SynthesisRelay.Observer?) -> SynthesisRelay
    /// Whether voice `id`'s model takes a style instruction (`VoiceControls.instruction`). The default: no.
    func acceptsInstructions(voice id: String) async -> Bool
    /// The languages model `id` speaks with any of its voices (Kokoro v1.0: eight), from its manifest; the
    /// default: none known.
    func languages(ofModel id: String) async -> [String]
}

extension SynthesisService {
    public func relay(_ request: SynthesisRequest) -> SynthesisRelay { SynthesisRelay(synthesize(request)) }
    public func relay(_ request: SynthesisRequest, voice: VoiceDescription, observer: SynthesisRelay.Observer?) -> SynthesisRelay {
        var named = request
        named.voice = voice.id
        return SynthesisRelay(synthesize(named), observer: observer)
    }
    public func acceptsInstructions(voice id: String) async -> Bool { false }
    public func languages(ofModel id: String) async -> [String] { [] }
}

/// What the services need to recognise speech: the recognition models, and a transcript stream.
public protocol RecognitionService: Sendable {
    /// Every installed recognition model.
    func recognitionModels() async -> [RecognitionModelDescription]
    /// Recognises `audio` (any rate and channel count) with the model `model` (an id from
    /// `recognitionModels`), streaming segments; cancelling the consuming task stops the work.
    func transcribe(_ audio: AudioBuffer, model: String, options: TranscriptionOptions)
        -> AsyncThrowingStream<TranscriptSegment, any Error>
    /// The language spoken at the start of `audio` and its probability, heard by the multilingual model `model`;
    /// nil when that model cannot tell.
    func detectLanguage(_ audio: AudioBuffer, model: String) async throws -> (language: String, probability: Double)?
}

extension RecognitionService {
    /// A service without language detection never tells.
    public func detectLanguage(_ audio: AudioBuffer, model: String) async throws -> (language: String, probability: Double)? { nil }
}

/// An installed speech recognition model, as the services offer it.
public struct RecognitionModelDescription: Sendable, Hashable {
    public var id: String
    /// The language codes it accepts (`["en"]` for English-only models).
    public var languages: [String]
    /// Whether it can translate into English (Whisper's multilingual models).
    public var canTranslate: Bool

    public init(id: String, languages: [String], canTranslate: Bool) {
        self.id = id
        self.languages = languages
        self.canTranslate = canTranslate
    }
}
