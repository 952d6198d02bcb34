import Testing
@testable import WarbleModels
import WarbleText

/// The front end with Warble's own normalisers, and its errors.
@Suite struct CosyVoiceTextFrontEndTests {
    /// Counts words, standing in for a tokenizer where the counts do not matter.
    static let frontEnd = CosyVoiceTextFrontEnd(tokenCount: { $0.split(separator: " ").count })

    @Test func englishNumbersAreSpelledByWarblesNormalizer() throws {
        let pieces = try Self.frontEnd.pieces("I have 3 cats and 12 dogs")
        #expect(pieces == ["I have three cats and twelve dogs."])
        let long = try Self.frontEnd.pieces("In 1999 we paid $5 for 2 tickets; the 3rd row was 50% empty.")
        #expect(long.count == 1)
        let digits = long[0].filter(\.isNumber)
        #expect(digits.isEmpty, "\(long)")
    }

    @Test func chineseKeepsDigitsUnlessGivenANormalizer() throws {
        #expect(try Self.frontEnd.pieces("我有3只猫") == ["我有3只猫。"])
        let withNormalizer = CosyVoiceTextFrontEnd(tokenCount: { $0.count }, chineseNormalizer: ChineseNormalizer())
        let pieces = try withNormalizer.pieces("我有3只猫")
        #expect(pieces == ["我有三只猫。"])
    }

    @Test func taggedTextIsLeftAlone() throws {
        let prompt = "You are a helpful assistant.<|endofprompt|>Hello 3 times"
        #expect(try Self.frontEnd.pieces(prompt) == [prompt])
        #expect(Self.frontEnd.normalize(prompt) == prompt)
        #expect(CosyVoiceTextFrontEnd.isTagged(prompt))
        #expect(!CosyVoiceTextFrontEnd.isTagged("a <| b"))
    }

    @Test(arguments: ["", "   \n", "...", "?!—", "。。。"])
    func nothingToSayIsAClearError(_ text: String) {
        do {
            let pieces = try Self.frontEnd.pieces(text)
            Issue.record("\(text.debugDescription) gave \(pieces)")
        } catch let error as TextError {
            #expect(error.kind == .chunking)
            #expect(error.message.contains("nothing to say"), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func pythonStringRulesHoldAtTheEdges() {
        // "\r\n": Python finds "\n" inside it; Swift's Character comparison would not.
        #expect(CosyVoiceTextRules.replace("a\r\nb", "\n", with: "") == "a\rb")
        #expect(CosyVoiceTextRules.strip("\u{1C} x \u{3000}") == "x")
        #expect(CosyVoiceTextRules.endWithFullStop("好，,、") == "好。")
        #expect(CosyVoiceTextRules.isOnlyPunctuation(""))
        #expect(CosyVoiceTextRules.isOnlyPunctuation("…！$"))
        #expect(!CosyVoiceTextRules.isOnlyPunctuation(" ."))
    }
}
