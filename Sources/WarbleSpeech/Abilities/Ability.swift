/// What a model can do for the engine. A model family declares the abilities its models offer.
public enum Ability: String, Sendable, Hashable, CaseIterable, Codable {
    /// Text to speech (`SpeechSynthesizer`, through the family's `UtteranceRenderer`).
    case synthesis
    /// Speech to text (`SpeechRecognizer`).
    case recognition
    /// Speech or silence (`VoiceActivityDetector`).
    case voiceActivity
    /// A voice from a clip (`VoiceEncoder`).
    case voiceEncoding
    /// Text to text in another language (`TextTranslator`).
    case translation
    /// Who is speaking: an embedding of the speaker's voice (`SpeakerEmbedding`).
    case speakerEmbedding
}
