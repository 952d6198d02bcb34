import Foundation
import Testing
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import WarbleTestSupport

/// The length of a request known at its first chunk (what makes a WAV header exact): with the real
/// voices, a request that is one utterance says on its first chunk exactly how many frames all its
/// chunks hold; one with more to say (a second sentence, a trailing break) says nothing.
@Suite(.needs(model: "piper-en_US-joe-medium"), .needsRuntime, .serialized) struct RequestLengthTests {
    static let engine = Engine(phonemizer: EspeakPhonemizer(), configuration: .init(idleUnloadAfter: nil, cacheBytes: 0, threads: 2))

    static let single: [(String, Bool)] = [
        ("Hello there, this is one sentence of speech.", false),
        ("A longer sentence, so that the Piper decoder streams it in several windows of growing size, "
            + "which is what happens to most sentences people ask a speech engine to say.", false),
        ("<speak>One sentence with a mark at its end.<mark name=\"end\"/></speak>", true),
        ("<speak><prosody rate=\"slow\">Slowly, one sentence.</prosody></speak>", true),
    ]

    @Test(.needs(model: "kokoro-v1.0-int8"), arguments: ["en_US-joe-medium", "kokoro-jm_kumo"], single.indices.map { $0 })
    func oneUtteranceKnowsItsLengthAtTheFirstChunk(voice: String, index: Int) async throws {
        _ = try InstalledVoices.model(voice.hasPrefix("kokoro") ? "kokoro-v1.0-int8" : "piper-en_US-joe-medium")
        let (text, ssml) = Self.single[index]
        let chunks = try await collect(Self.engine.synthesize(SynthesisRequest(text: text, isSSML: ssml, voice: voice)))
        let first = try #require(chunks.first)
        let total = chunks.reduce(0) { $0 + $1.samples.count }
        let utterances = chunks.flatMap(\.events).filter { if case .sentence = $0 { true } else { false } }.count
        // Kokoro starts a long sentence on a short first phrase: two utterances, so the length is unknown.
        let expectOne = !(voice.hasPrefix("kokoro") && index == 1)
        #expect((utterances == 1) == expectOne, "\(voice): \(text)")
        #expect(first.requestFrames == (expectOne ? total : nil), "\(voice): \(text)")
        #expect(chunks.dropFirst().allSatisfy { $0.requestFrames == nil })
        if voice == "en_US-joe-medium", index == 1 { #expect(chunks.count > 1, "the long sentence streams in windows") }
    }

    @Test func moreThanOneUtteranceLeavesItUnknown() async throws {
        _ = try InstalledVoices.model("piper-en_US-joe-medium")
        for (text, ssml) in [("One sentence. And another one.", false),
                             ("<speak>Before a pause. <break time=\"300ms\"/></speak>", true),
                             ("<speak><break time=\"300ms\"/>After a pause.</speak>", true)] {
            let chunks = try await collect(Self.engine.synthesize(SynthesisRequest(text: text, isSSML: ssml)))
            #expect(chunks.allSatisfy { $0.requestFrames == nil }, "\(text)")
        }
    }
}
