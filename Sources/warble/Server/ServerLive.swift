import WarbleEngine
import WarbleServer

/// The engine's live recognition (Silero VAD in front of the model) for the server's live caption sessions.
extension Engine: LiveRecognitionBackend {}
