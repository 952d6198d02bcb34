import WarbleSpeech

extension PiperFamily: FamilyPulling {
    /// `piper:VOICE`, a voice of the repository's `voices.json`, installed as `piper-VOICE`.
    public var pullForm: PullReferenceForm { .listed(prefix: "piper:", installedPrefix: "piper-") }
}
