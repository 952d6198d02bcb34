import Testing
import WarbleSpeech

/// Kokoro-FastAPI's mix syntax: equal parts, weights normalised, repeated voices merged, and clear
/// errors for what is not a mix.
@Suite struct VoiceMixTests {
    @Test func plainIDsAreNoMix() throws {
        #expect(try VoiceMix.parse("kokoro-af_bella") == nil)
        #expect(try VoiceMix.parse("en_US-joe-medium") == nil)
    }

    @Test func equalPartsAndWeights() throws {
        let equal = try #require(try VoiceMix.parse("a+b"))
        #expect(equal.parts.map(\.voice) == ["a", "b"])
        #expect(equal.parts.map(\.weight) == [0.5, 0.5])
        let weighted = try #require(try VoiceMix.parse(" a(2) + b(1) + c (1) "))
        #expect(weighted.parts.map(\.voice) == ["a", "b", "c"])
        #expect(weighted.parts.map(\.weight) == [0.5, 0.25, 0.25])
        #expect(weighted.id == "a(0.5)+b(0.25)+c(0.25)")
        let merged = try #require(try VoiceMix.parse("a(1)+b(1)+a(2)"))
        #expect(merged.parts.map(\.weight) == [0.75, 0.25])
        let single = try #require(try VoiceMix.parse("a(0.3)"))
        #expect(single.parts == [.init(voice: "a", weight: 1)])
    }

    @Test(arguments: ["a+", "+b", "a(x)+b", "a(0)+b", "a(-1)+b", "a(nan)+b", "a(inf)+b", "a(2+b", "a(1e9)+b",
                      "a+b+c+d+e+f+g+h+i"])
    func malformedMixesAreClearErrors(text: String) {
        #expect(throws: ModelError.self) { try VoiceMix.parse(text) }
    }
}
