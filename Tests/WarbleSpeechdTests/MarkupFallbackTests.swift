import Testing
@testable import WarbleSpeechd

/// A screen-reader user never hears silence because of bad markup: SSML the engine cannot use is
/// spoken as its text, the markup removed, and the reason is kept for the log.
@Suite struct MarkupFallbackTests {
    func plan(_ text: String, spelling: Bool = false) -> UtterancePlan {
        var settings = SpeechSettings()
        settings.spelling = spelling
        return UtterancePlan.make(kind: .text, text: text, settings: settings, voice: "v", soundIconFolder: "/none")
    }

    @Test(arguments: [
        (#"<speak>Hello <break time="1e300s"/> world.</speak>"#, "Hello world.", "longer than the 10 s"),
        ("<speak>Unclosed <prosody rate='fast'>there", "Unclosed there", "is not closed"),
        (#"<speak><prosody volume="+1000dB">Loud</prosody> words.</speak>"#, "Loud words.", "is not valid"),
        ("<speak>Fish &amp; chips &nosuch; end</speak>", "Fish & chips end", "unknown entity"),
    ])
    func badMarkupIsSpokenAsItsText(_ ssml: String, _ spoken: String, _ reason: String) {
        let plan = plan(ssml)
        #expect(!plan.request.isSSML)
        #expect(plan.request.text == spoken)
        #expect(plan.markupProblem?.contains(reason) == true, "\(plan.markupProblem ?? "nil")")
    }

    @Test func goodMarkupIsKept() {
        let ssml = #"<?xml version="1.0"?><speak>Hello <break time="2s"/> world.</speak>"#
        let plan = plan(ssml)
        #expect(plan.request.isSSML)
        #expect(plan.request.text == ssml)
        #expect(plan.markupProblem == nil)
    }

    @Test func badMarkupIsSpelledAsItsText() {
        let plan = plan(#"<speak>ab <break time="99999999999s"/></speak>"#, spelling: true)
        #expect(!plan.request.isSSML)
        #expect(plan.request.text == SpokenText.spelled("ab", capitals: SpeechSettings().capitalLetters))
    }
}
