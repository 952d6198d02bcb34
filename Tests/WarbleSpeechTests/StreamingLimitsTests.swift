import Foundation
import Testing
import WarbleSpeech
import WarbleText

/// The streaming pipeline's bounds: silence in small pieces, a request's maximum duration, rates and
/// volumes, and utterances that normalisation made far longer than a chunk. A fake renderer makes
/// 10 ms of tone per character at 1 kHz, so every case runs in milliseconds.
@Suite struct StreamingLimitsTests {
    struct ToneRenderer: UtteranceRenderer {
        var modelID: String { "tone" }
        var sampleRate: Int { 1000 }
        var voices: [VoiceDescription] { [VoiceDescription(id: "tone", displayName: "Tone", language: "en-US", model: "tone", sampleRate: 1000)] }
        var defaultVoice: String { "tone" }
        var language: String { "en-US" }
        var chunkCharacters: Int { 100 }
        let lengths = Lengths()

        /// The length of every utterance rendered, in characters (or phonemes).
        final class Lengths: @unchecked Sendable {
            private let lock = NSLock()
            private var values: [Int] = []
            func append(_ value: Int) { lock.withLock { values.append(value) } }
            var all: [Int] { lock.withLock { values } }
        }

        func render(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> RenderedUtterance {
            let count = (utterance.phonemes ?? utterance.text).count
            lengths.append(count)
            let frames = Int(Double(count * 10) / rate)
            return RenderedUtterance(samples: (0..<frames).map { Float(sin(Double($0) * 0.3)) * 0.5 }, wordWeights: [])
        }
    }

    func collect(_ request: SynthesisRequest, renderer: ToneRenderer = ToneRenderer()) async throws -> [AudioChunk] {
        var chunks: [AudioChunk] = []
        for try await chunk in StreamingSynthesizer(renderer: renderer).synthesize(request) { chunks.append(chunk) }
        return chunks
    }

    @Test func aLongBreakLeavesInQuarterSecondPieces() async throws {
        let chunks = try await collect(SynthesisRequest(text: #"<speak>a<break time="10s"/>b</speak>"#, isSSML: true))
        #expect(chunks.allSatisfy { $0.samples.count <= 250 })
        let silent = chunks.filter { $0.samples.allSatisfy { $0 == 0 } && !$0.samples.isEmpty }
        #expect(silent.reduce(0) { $0 + $1.samples.count } == 10_000)
    }

    @Test func breaksLongerThanTheMaximumDurationAreRefusedBeforeAnyAudio() async throws {
        let ssml = "<speak>" + String(repeating: #"a <break time="10s"/>"#, count: 7) + "</speak>"
        let request = SynthesisRequest(text: ssml, isSSML: true, maximumDuration: 60)
        var count = 0
        let error = await #expect(throws: ModelError.self) {
            for try await _ in StreamingSynthesizer(renderer: ToneRenderer()).synthesize(request) { count += 1 }
        }
        #expect(count == 0)
        #expect(error?.message.contains("breaks alone last 70 s, longer than the 60 s") == true, "\(String(describing: error))")
    }

    @Test func audioThatGrowsPastTheMaximumDurationEndsTheStream() async throws {
        // 20 sentences of 50 characters: 10 s of tone at 1 kHz, over a 3 s limit.
        let text = String(repeating: "This sentence has exactly fifty characters in it. ", count: 20)
        let request = SynthesisRequest(text: text, maximumDuration: 3)
        var frames = 0
        let error = await #expect(throws: ModelError.self) {
            for try await chunk in StreamingSynthesizer(renderer: ToneRenderer()).synthesize(request) { frames += chunk.samples.count }
        }
        #expect(frames <= 3000)
        #expect(error?.message.contains("grew past the 3 s") == true)
    }

    @Test(arguments: [0, -1, 0.05, 11, Double.nan, .infinity])
    func rateOutsideTheLimitsIsRefused(_ rate: Double) async throws {
        let error = await #expect(throws: ModelError.self) { _ = try await collect(SynthesisRequest(text: "Hello.", rate: rate)) }
        #expect(error?.message.contains("rate must be from 0.1 to 10") == true)
    }

    @Test(arguments: [-0.5, 4.5, Double.nan, .infinity])
    func volumeOutsideTheLimitsIsRefused(_ volume: Double) async throws {
        let error = await #expect(throws: ModelError.self) { _ = try await collect(SynthesisRequest(text: "Hello.", volume: volume)) }
        #expect(error?.message.contains("volume must be from 0 to 4") == true)
    }

    @Test(arguments: [Double.nan, -1, .infinity])
    func sentencePauseThatIsNoDurationIsRefused(_ pause: Double) async throws {
        await #expect(throws: ModelError.self) { _ = try await collect(SynthesisRequest(text: "Hello.", sentencePause: pause)) }
    }

    @Test func aHugeNumberIsSpokenInChunkSizedUtterances() async throws {
        let renderer = ToneRenderer()
        let chunks = try await collect(SynthesisRequest(text: "The number is " + String(repeating: "7", count: 5000) + "."),
                                       renderer: renderer)
        // Read out, the number is some 30,000 characters: never one run of that size.
        #expect(renderer.lengths.all.count > 100)
        #expect(renderer.lengths.all.allSatisfy { $0 <= 100 * TextChunker.wordCutFactor })
        #expect(chunks.allSatisfy { $0.samples.allSatisfy(\.isFinite) })
    }

    @Test func authorPhonemesAreCutToo() async throws {
        let renderer = ToneRenderer()
        let ph = String(repeating: "ə", count: 2000)
        _ = try await collect(SynthesisRequest(text: "<speak><phoneme ph=\"\(ph)\">x</phoneme></speak>", isSSML: true),
                              renderer: renderer)
        #expect(renderer.lengths.all.reduce(0, +) == 2000)
        #expect(renderer.lengths.all.allSatisfy { $0 <= 100 })
    }

    @Test func ordinarySentencesStayWhole() async throws {
        let renderer = ToneRenderer()
        _ = try await collect(SynthesisRequest(text: "On 3/14/2025 it cost $1,234.56, about 12% more."), renderer: renderer)
        #expect(renderer.lengths.all.count == 1)
    }
}
