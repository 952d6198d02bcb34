import WarbleSpeech

/// The start-up check readiness waits for: `preload` (the caller's, e.g. the engine loading the default voice's
/// model), then a short synthesis with the default voice that must give audio.
enum StartupCheck {
    static let text = "Ready."

    static func run(backend: some SpeechBackend, preload: @Sendable () async throws -> Void) async throws {
        try await preload()
        let voice = try await backend.voice(nil)
        var samples = 0
        for try await chunk in backend.synthesize(SynthesisRequest(text: text, voice: voice.id)) {
            samples += chunk.samples.count
        }
        guard samples > 0 else { throw StartupCheckError(message: "the default voice \(voice.id) gave no audio for '\(text)'") }
    }
}

struct StartupCheckError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
