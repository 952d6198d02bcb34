import WarbleEngine

/// Which installed models `warble bench report` measures: one voice per speaking model (the engine's
/// default voice for its model, else the model's first), every recognition and translation model,
/// limited to `wanted` when given.
struct BenchReportPlan {
    var voices: [(model: String, voice: String)] = []
    var recognizers: [String] = []
    var translators: [(model: String, pair: LanguagePair)] = []
    /// Requested ids that are not installed.
    var unknown: [String] = []
    /// The voice that speaks the ASR clip: the default Piper voice.
    var clipVoice = "en_US-joe-medium"

    init(engine: Engine, wanted: Set<String>?) async {
        let keep = { (id: String) in wanted?.contains(id) ?? true }
        let all = await engine.installedVoices()
        let preferred = await engine.defaultVoiceID()
        for voice in all where keep(voice.model) && !voices.contains(where: { $0.model == voice.model }) {
            let chosen = all.first { $0.model == voice.model && $0.id == preferred } ?? voice
            voices.append((voice.model, chosen.id))
        }
        recognizers = await engine.recognitionModels().map(\.id).filter(keep)
        translators = await engine.translationPairs().filter { keep($0.id) }.map { ($0.id, $0.pair) }
        let installed = Set(all.map(\.model) + (await engine.recognitionModels().map(\.id)) + (await engine.translationPairs().map(\.id)))
        unknown = (wanted ?? []).subtracting(installed).sorted()
        if let preferred { clipVoice = preferred }
    }
}
