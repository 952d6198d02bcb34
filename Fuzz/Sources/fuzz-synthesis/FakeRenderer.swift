import Foundation

import WarbleSpeech

/// A renderer with no model: 1,000 samples a second, 20 samples (0.02 s) per character or phoneme at
/// rate 1, longer as the rate falls, as a real voice's audio does. Refuses (as a precondition failure,
/// which the fuzzer reports) to make more audio than the whole input may give.
struct FakeRenderer: UtteranceRenderer {
    static let samplesPerCharacter = 20

    let modelID = "fake"
    let sampleRate = 1000
    let voices = [VoiceDescription(id: "fake-voice", displayName: "Fake", language: "en-US", model: "fake", sampleRate: 1000)]
    let defaultVoice = "fake-voice"
    let language = "en-US"
    let chunkCharacters = 60
    let firstChunkCharacters: Int? = 30
    /// The most samples the request may produce in all.
    let maxSamples: Int

    func render(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> RenderedUtterance {
        precondition(rate.isFinite && rate > 0, "rendering at rate \(rate)")
        let characters = utterance.phonemes?.count ?? utterance.text.count
        let length = Double(characters * Self.samplesPerCharacter) / rate
        precondition(length <= Double(maxSamples),
                     "one utterance of \(characters) characters at rate \(rate) would be \(length) samples; the input allows \(maxSamples)")
        let samples = (0..<Int(length.rounded())).map { Float(0.5 * sin(Double($0) * 0.3)) }
        let words = utterance.text.split(whereSeparator: \.isWhitespace).map(\.count)
        return RenderedUtterance(samples: samples, wordWeights: words.isEmpty ? [1] : words)
    }
}
