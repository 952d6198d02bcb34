import Testing
import WarbleEngine
import WarbleSpeech

/// Which way speech reaches a target language, from the installed translators' pairs.
struct SpeechTranslationRouteTests {
    let enpt = LanguagePair(source: "en", target: "pt-BR")
    let ptEN = LanguagePair(source: "pt-BR", target: "en")

    func route(_ spoken: String?, _ target: String, _ pairs: [LanguagePair], translates: Bool = true) -> SpeechTranslationRoute? {
        SpeechTranslationRoute.choose(spoken: spoken, target: target, pairs: pairs, whisperTranslates: translates)
    }

    @Test func englishTargetsUseWhispersTranslateTask() {
        #expect(route("de", "en", []) == .init(task: .translate, textLanguage: "en"))
        #expect(route(nil, "en", []) == .init(task: .translate, textLanguage: "en"))
        #expect(route("en-US", "en", []) == .init(task: .transcribe, textLanguage: "en"))
        // An English-only Whisper: English speech is transcribed; other speech cannot become English.
        #expect(route(nil, "en", [], translates: false) == .init(task: .transcribe, textLanguage: "en"))
        #expect(route("de", "en", [], translates: false) == nil)
    }

    @Test func otherTargetsUseADirectTranslatorOrEnglishAsThePivot() {
        #expect(route("en", "pt", [enpt]) == .init(task: .transcribe, textLanguage: "en", translation: enpt))
        #expect(route("pt", "pt-BR", [enpt]) == .init(task: .transcribe, textLanguage: "pt"))
        let direct = LanguagePair(source: "de", target: "pt")
        #expect(route("de", "pt", [enpt, direct]) == .init(task: .transcribe, textLanguage: "de", translation: direct))
        #expect(route("de", "pt", [enpt]) == .init(task: .translate, textLanguage: "en", translation: enpt))
        #expect(route(nil, "pt", [enpt]) == .init(task: .translate, textLanguage: "en", translation: enpt))
        #expect(route("de", "pt", [enpt], translates: false) == nil)
        #expect(route("en", "pt", [enpt], translates: false) == .init(task: .transcribe, textLanguage: "en", translation: enpt))
        #expect(route("en", "fr", [enpt, ptEN]) == nil)
    }

    @Test func reachableLooksOnlyAtTheTarget() {
        #expect(SpeechTranslationRoute.reachable("en", pairs: []))
        #expect(SpeechTranslationRoute.reachable("pt", pairs: [enpt]))
        #expect(!SpeechTranslationRoute.reachable("fr", pairs: [enpt, ptEN]))
    }

    @Test func theDescriptionSaysEachStep() {
        #expect(SpeechTranslationRoute(task: .translate, textLanguage: "en", translation: enpt).description
            == "Whisper (translate task) → en → en→pt-BR")
        #expect(SpeechTranslationRoute(task: .transcribe, textLanguage: "pt").description == "Whisper (pt)")
    }
}
