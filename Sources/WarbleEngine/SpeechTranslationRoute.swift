import WarbleSpeech

/// How speech in one language becomes text in another: Whisper transcribes (or, with its translate
/// task, turns any language into English), then a text translator takes the text the rest of the way
/// when the target is not what Whisper gave.
public struct SpeechTranslationRoute: Sendable, Hashable, CustomStringConvertible {
    /// Whisper's task.
    public var task: TranscriptionOptions.Task
    /// The language of Whisper's text: the spoken one, or English after its translate task.
    public var textLanguage: String
    /// The text translation after Whisper, nil when Whisper's text is already in the target language.
    public var translation: LanguagePair?

    public init(task: TranscriptionOptions.Task, textLanguage: String, translation: LanguagePair? = nil) {
        self.task = task
        self.textLanguage = textLanguage
        self.translation = translation
    }

    public var description: String {
        let whisper = task == .translate ? "Whisper (translate task) → \(textLanguage)" : "Whisper (\(textLanguage))"
        return translation.map { "\(whisper) → \($0)" } ?? whisper
    }

    /// The route for speech in `spoken` (nil: not known yet) to text in `target`, given the installed
    /// text translators' pairs and whether the Whisper model can translate (multilingual models can).
    ///
    /// English targets use Whisper's translate task (its transcription when the speech is English or
    /// the model is English-only). Other targets: a transcript when the speech is in the target
    /// language; else a direct translator from the spoken language when one is installed; else
    /// English as the pivot (the translate task, then a translator from English). Nil when no
    /// installed model reaches the target.
    public static func choose(spoken: String?, target: String, pairs: [LanguagePair], whisperTranslates: Bool) -> Self? {
        let english = "en"
        if LanguageCode.same(target, english) {
            let spokenEnglish = spoken.map { LanguageCode.same($0, english) } ?? !whisperTranslates
            if spokenEnglish { return Self(task: .transcribe, textLanguage: english) }
            return whisperTranslates ? Self(task: .translate, textLanguage: english) : nil
        }
        func pair(from source: String) -> LanguagePair? {
            pairs.first { LanguageCode.same($0.source, source) && LanguageCode.same($0.target, target) }
        }
        if let spoken {
            if LanguageCode.same(spoken, target) { return Self(task: .transcribe, textLanguage: spoken) }
            if let direct = pair(from: spoken) { return Self(task: .transcribe, textLanguage: spoken, translation: direct) }
        }
        guard let pivot = pair(from: english) else { return nil }
        if let spoken, LanguageCode.same(spoken, english) {
            return Self(task: .transcribe, textLanguage: english, translation: pivot)
        }
        guard whisperTranslates || spoken == nil else { return nil }
        return Self(task: whisperTranslates ? .translate : .transcribe, textLanguage: english, translation: pivot)
    }

    /// Whether some route reaches `target` whatever the speech turns out to be in: to check before any
    /// audio is recognised.
    public static func reachable(_ target: String, pairs: [LanguagePair]) -> Bool {
        LanguageCode.same(target, "en") || pairs.contains { LanguageCode.same($0.target, target) }
    }
}

/// One recognised stretch of speech and its translation.
public struct TranslatedSegment: Sendable, Hashable, Codable {
    /// Seconds from the start of the audio.
    public var start: Double
    public var end: Double
    /// The spoken language (Whisper's detection, or the language given).
    public var spokenLanguage: String
    /// Whisper's text, in `textLanguage` (English after its translate task).
    public var text: String
    public var textLanguage: String
    /// The text in the target language (Whisper's text when no translation was needed).
    public var translation: String
    public var targetLanguage: String
    /// Seconds spent waiting for Whisper for this segment, and translating it.
    public var recognitionSeconds: Double
    public var translationSeconds: Double

    public init(start: Double, end: Double, spokenLanguage: String, text: String, textLanguage: String,
                translation: String, targetLanguage: String, recognitionSeconds: Double, translationSeconds: Double) {
        self.start = start
        self.end = end
        self.spokenLanguage = spokenLanguage
        self.text = text
        self.textLanguage = textLanguage
        self.translation = translation
        self.targetLanguage = targetLanguage
        self.recognitionSeconds = recognitionSeconds
        self.translationSeconds = translationSeconds
    }
}
