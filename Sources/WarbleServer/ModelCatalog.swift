import WarbleSpeech

/// The models the API offers: OpenAI's names as aliases for "any installed voice", plus each
/// installed model by its own id; and the choice of voice for a (model, voice) pair.
struct ModelCatalog<Backend: SpeechBackend>: Sendable {
    /// Names OpenAI clients send; they accept every voice.
    static var aliases: [String] { ["tts-1", "tts-1-hd", "gpt-4o-mini-tts", "warble"] }

    let backend: Backend
    var aliases: VoiceAliases = .openAI

    /// Every model id, aliases first.
    func modelIDs() async -> [String] {
        var ids = Self.aliases
        for voice in await backend.installedVoices() where !ids.contains(voice.model) { ids.append(voice.model) }
        return ids
    }

    /// The voice for a request: the named one (404 when unknown), or the default (of `model`, when
    /// `model` names an installed model). A voice of another model than the one named is a 400.
    func voice(_ id: String?, model: String) async throws -> VoiceDescription {
        if let id, Self.namesAFile(id) {
            // Voice files by path are the command line's convenience; over the network they would read the
            // server's files (and say which exist). The message does not repeat the path.
            throw APIError.badRequest("'voice' takes a voice id (GET /v1/audio/voices lists them) or an OpenAI voice name, "
                + "not a file path", param: "voice", code: "invalid_value")
        }
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
        let voice = try await backend.voice(resolve(id, model: isAlias ? nil : model, installed: voices))
        guard isAlias || voice.model == model else {
            throw APIError.badRequest("voice '\(voice.id)' belongs to model '\(voice.model)', not '\(model)'",
                                      param: "voice", code: "invalid_value")
        }
        return voice
    }

    /// True for what the engine would read as a model file: a path (`/`, `\\`, `~`, a leading dot) or an `.onnx` name.
    static func namesAFile(_ id: String) -> Bool {
        id.contains("/") || id.contains("\\") || id.hasPrefix("~") || id.hasPrefix(".") || id.lowercased().hasSuffix(".onnx")
            || id.lowercased().hasSuffix(".json")
    }

    /// `id` itself when a voice has that id; otherwise the installed voice an OpenAI voice name stands
    /// for (among `model`'s voices when a model is named), or the one voice whose id ends in `-ID` (`jf_alpha`
    /// for `kokoro-jf_alpha`, as a mix names it).
    func resolve(_ id: String?, model: String?, installed: [VoiceDescription]) async -> String? {
        guard let id, !installed.contains(where: { $0.id == id }) else { return id }
        let candidates = model.map { name in installed.filter { $0.model == name } } ?? installed
        let defaultID = await backend.defaultVoiceID()
        let fallback = candidates.contains { $0.id == defaultID } ? defaultID : candidates.first?.id
        var english: Set<String> = []
        for model in Set(candidates.map(\.model)) where await backend.languages(ofModel: model).contains(where: { $0.lowercased().hasPrefix("en") }) {
            english.insert(model)
        }
        if let voice = aliases.resolve(id, installed: candidates, defaultVoice: fallback, speaksEnglish: { english.contains($0.model) }) {
            return voice
        }
        let suffixed = candidates.filter { $0.id.hasSuffix("-" + id) }
        return suffixed.count == 1 ? suffixed[0].id : id
    }

    /// Whether `voice` was chosen for the OpenAI voice name `requested` but is not an English voice: its model
    /// speaks English (OpenAI's voices are English voices), so the request is spoken as English.
    func speaksAsEnglish(_ voice: VoiceDescription, requested: String?) async -> Bool {
        guard let requested, requested != voice.id, aliases.table[requested.lowercased()] != nil,
              !voice.language.lowercased().hasPrefix("en") else { return false }
        return await backend.languages(ofModel: voice.model).contains { $0.lowercased().hasPrefix("en") }
    }

    /// The OpenAI voice names that stand for each installed voice.
    func aliasNames() async -> [String: [String]] {
        let installed = await backend.installedVoices()
        var names: [String: [String]] = [:]
        for name in aliases.table.keys.sorted() where !installed.contains(where: { $0.id == name }) {
            if let id = await resolve(name, model: nil, installed: installed) { names[id, default: []].append(name) }
        }
        return names
    }
}
