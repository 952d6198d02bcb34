import WarbleSpeech

extension WhisperFamily: FamilyPulling {
    /// `whisper-SIZE` (the catalogue's `whisper-{size}`).
    public var pullForm: PullReferenceForm { .sized(noun: "Whisper") }
}
