import WarbleEngine
import WarbleSpeech

/// `warble translate --format json`: the transcript, its translation, the route and the voice, with the
/// target language spelt once (the translation model's variant, as in the segments: `pt-BR` for `--to pt`).
struct TranslationDocument: Encodable {
    /// How the speech became the target language: spoken in `source`, through `pivot` when Whisper's text
    /// was in neither (German speech translated to English, then to Portuguese), into `target`.
    struct Route: Encodable, Equatable {
        let source: String?
        let pivot: String?
        let target: String

        /// From the first segment (every segment of one run takes the route it fixes); nil segments: the
        /// language given (`--language`, nil for auto) and the target.
        init(first: TranslatedSegment?, spoken: String?, target: String) {
            guard let first else {
                self.init(source: spoken, pivot: nil, target: target)
                return
            }
            let text = first.textLanguage
            let through = !LanguageCode.same(text, first.spokenLanguage) && !LanguageCode.same(text, first.targetLanguage)
            self.init(source: first.spokenLanguage, pivot: through ? text : nil, target: first.targetLanguage)
        }

        init(source: String?, pivot: String?, target: String) {
            self.source = source
            self.pivot = pivot
            self.target = target
        }
    }

    let input: String
    let spokenLanguage: String?
    let targetLanguage: String
    let route: Route
    let recognitionModel: String
    let duration: Double
    let translation: String
    let segments: [TranslatedSegment]
    let voice: String?
    let voiceLanguageIsNative: Bool?
    let speechSeconds: Double?
    let output: String?

    init(input: String, segments: [TranslatedSegment], spoken: String?, target: String, recognitionModel: String,
         duration: Double, voice: TranslationSpeaker?, output: String?) {
        route = Route(first: segments.first, spoken: spoken, target: target)
        self.input = input
        spokenLanguage = route.source
        targetLanguage = route.target
        self.recognitionModel = recognitionModel
        self.duration = duration
        translation = segments.map(\.translation).filter { !$0.isEmpty }.joined(separator: " ")
        self.segments = segments
        self.voice = voice?.voice.id
        voiceLanguageIsNative = voice?.native
        speechSeconds = voice?.synthesisSeconds
        self.output = output
    }
}
