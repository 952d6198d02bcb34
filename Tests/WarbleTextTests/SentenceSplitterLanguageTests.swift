import Testing
import WarbleText

/// Sentences of other languages, as translation splits them before translating (a line of text is
/// translated sentence by sentence): CJK full stops without spaces, Spanish inverted marks, each
/// language's abbreviations.
@Suite struct SentenceSplitterLanguageTests {
    func split(_ text: String, _ language: String) -> [String] { SentenceSplitter(language: language).split(text).map(String.init) }

    @Test func chineseAndJapaneseFullStops() {
        #expect(split("今日は晴れです。明日は雨でしょう！本当？", "ja") == ["今日は晴れです。", "明日は雨でしょう！", "本当？"])
        #expect(split("我们走吧。他说：“好的。”然后走了。", "zh") == ["我们走吧。", "他说：“好的。”", "然后走了。"])
    }

    @Test func spanishInvertedMarks() {
        #expect(split("¿Dónde está la estación? ¡Muchas gracias! Hola.", "es") == ["¿Dónde está la estación?", "¡Muchas gracias!", "Hola."])
        #expect(split("El Sr. García llegó. La Sra. López no.", "es") == ["El Sr. García llegó.", "La Sra. López no."])
    }

    @Test func abbreviationsOfEachLanguage() {
        #expect(split("Das ist z.B. ein Test. Nr. 5 kommt bzw. Frau Dr. Meier kommt.", "de")
            == ["Das ist z.B. ein Test.", "Nr. 5 kommt bzw. Frau Dr. Meier kommt."])
        #expect(split("Mme. Dupont est là. Elle attend.", "fr") == ["Mme. Dupont est là.", "Elle attend."])
        #expect(split("O Sr. Silva chegou. A Dra. Costa também.", "pt-BR") == ["O Sr. Silva chegou.", "A Dra. Costa também."])
        // Without the language, "Sra." ends a sentence.
        #expect(SentenceSplitter().split("La Sra. López no.").count == 2)
    }

    @Test func otherScripts() {
        #expect(split("هل أنت بخير؟ نعم.", "ar") == ["هل أنت بخير؟", "نعم."])
        #expect(split("मैं ठीक हूँ। धन्यवाद।", "hi") == ["मैं ठीक हूँ।", "धन्यवाद।"])
    }
}
