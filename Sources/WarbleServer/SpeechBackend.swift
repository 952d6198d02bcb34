import WarbleSpeech

/// The server's names for the services it is handed (`Engine` in `warble serve`; fakes in the tests).
public typealias SpeechBackend = SynthesisService
public typealias TranscriptionBackend = RecognitionService
