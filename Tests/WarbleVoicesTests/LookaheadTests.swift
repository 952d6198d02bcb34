import WarbleSpeech
import Foundation
import ONNXRuntime
import Testing
@testable import WarbleModels
import WarbleTestSupport

/// Rendering the next utterance in the background changes when audio is computed, never what it is.
@Suite(.needs(model: "piper-en_US-joe-medium"), .needsRuntime, .serialized) struct LookaheadTests {
    static let text = "<speak>The first sentence opens the request, so it streams in small pieces. "
        + "<mark name='second'/>The second one is rendered while the first is handed out. "
        + "<break time='300ms'/>A third follows the pause, <mark name='inside'/>with a mark inside it. "
        + "And the fourth ends the text.</speak>"

    /// The samples, and every event at its place in the whole audio.
    static func speak(lookahead: Bool) async throws -> (samples: [Float], events: [SpeechEvent]) {
        let piper = try InstalledVoices.sharedPiper.get()
        let synthesizer = StreamingSynthesizer(renderer: piper, lookahead: lookahead)
        var samples: [Float] = []
        var events: [SpeechEvent] = []
        for try await chunk in synthesizer.synthesize(SynthesisRequest(text: Self.text, isSSML: true)) {
            events += chunk.events.map { $0.shifted(by: samples.count) }
            samples += chunk.samples
        }
        return (samples, events)
    }

    @Test func sameAudioAndEventsWithAndWithoutLookahead() async throws {
        let plain = try await Self.speak(lookahead: false)
        let ahead = try await Self.speak(lookahead: true)
        #expect(ahead.samples.count == plain.samples.count)
        let difference = zip(ahead.samples, plain.samples).map { abs($0 - $1) }.max() ?? 1
        // Tolerance: the same windows decode the same frames; 1e-4 covers float noise (−80 dB).
        #expect(difference < 1e-4, "max abs difference: \(difference)")
        #expect(ahead.events == plain.events)
        #expect(ahead.events.filter { if case .mark = $0 { true } else { false } }.count == 2)
        // Five utterances: the mark splits the third sentence.
        #expect(ahead.events.filter { if case .sentence = $0 { true } else { false } }.count == 5)
    }

    @Test func stoppingEarlyLeavesNothingRunning() async throws {
        let piper = try InstalledVoices.sharedPiper.get()
        let synthesizer = StreamingSynthesizer(renderer: piper, lookahead: true)
        var first: AudioChunk?
        for try await chunk in synthesizer.synthesize(SynthesisRequest(text: Self.text, isSSML: true)) {
            first = chunk
            break
        }
        #expect((first?.samples.count ?? 0) > 0)
        // The abandoned request's background work stops; a new request on the same voice runs normally.
        let again = try await Self.speak(lookahead: true)
        #expect(again.events.count > 4)
    }
}
