import WarbleSpeech

/// The models the API offers: OpenAI's names as aliases for "any installed voice", plus each
/// installed model by its own id; and the choice of voice for a (model, voice) pair.
struct ModelCatalog<Backend: SpeechBackend>: Sendable {
    /// Names OpenAI clients send; they accept every voice.
    static var aliases: [String] { ["tts-1", "tts-1-hd", "gpt-4o-mini-tts", "warble"] }

    let backend: Backend

    /// Every model id, aliases first.
    func modelIDs() async -> [String] {
        var ids = Self.aliases
        for voice in await backend.installedVoices() where !ids.contains(voice.model) { ids.append(voice.model) }
        return ids
    }

    /// The voice for a request: the named one (404 when unknown), or the default (of `model`, when
    /// `model` names an installed model). A voice of another model than the one named is a 400.
    func voice(_ id: String?, model: String) async throws -> VoiceDescription {
        let voices = await backend.installedVoices()
        let isAlias = Self.aliases.contains(model)
        guard isAlias || voices.contains(where: { $0.model == model }) else {
            throw APIError(.notFound, "model '\(model)' does not exist; use one of "
                + (await modelIDs()).joined(separator: ", "), param: "model", code: "model_not_found")
        }
        if id == nil, !isAlias {
            let defaultID = await backend.defaultVoiceID()
            return voices.first { $0.model == model && $0.id == defaultID } ?? voices.first { $0.model == model }!
        }
        let voice = try await backend.voice(id)
        guard isAlias || voice.model == model else {
            throw APIError.badRequest("voice '\(voice.id)' belongs to model '\(voice.model)', not '\(model)'",
                                      param: "voice", code: "invalid_value")
        }
        return voice
    }
}
