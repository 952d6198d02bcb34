import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import WarbleTestSupport

/// Live segmentation and recognition with the installed Silero VAD and Whisper tiny.en, on speech from
/// the installed Piper voice: the segments do not depend on how the audio was chunked, two utterances
/// apart give two segments, silence gives none and keeps memory bounded, and `LiveTranscriber`
/// recognises each utterance from a stream of chunks.
@Suite(.needs(model: "piper-en_US-joe-medium"), .needs(model: "silero-vad"), .needsRuntime, .serialized) struct LiveRecognitionTests {
    static let rate = 16000
    static let first = "The quick brown fox jumps over the lazy dog."
    static let second = "Good morning, how are you today?"

    /// Piper's speech of `text` at 16 kHz.
    static func speech(_ text: String) async throws -> [Float] {
        let piper = try InstalledVoices.sharedPiper.get()
        let samples = try await collect(StreamingSynthesizer(renderer: piper).synthesize(SynthesisRequest(text: text))).flatMap(\.samples)
        return try RecognitionAudio.monoSamples(AudioBuffer(mono: samples, sampleRate: piper.sampleRate), sampleRate: rate)
    }

    static func silence(_ seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * Double(rate))) }

    /// 1 s of silence, the first sentence, 1.5 s of silence, the second, 1 s of silence; and where each sentence is.
    static func twoUtterances() async throws -> (samples: [Float], first: Range<Int>, second: Range<Int>) {
        let (a, b) = (try await speech(first), try await speech(second))
        let samples = silence(1) + a + silence(1.5) + b + silence(1)
        let firstStart = rate
        let secondStart = firstStart + a.count + Int(1.5 * Double(rate))
        return (samples, firstStart..<(firstStart + a.count), secondStart..<(secondStart + b.count))
    }

    static func detector() async throws -> any VoiceActivityDetector {
        _ = try InstalledVoices.model("silero-vad")
        return try await Engine(phonemizer: EspeakPhonemizer()).voiceActivityDetector()
    }

    /// Segments of `samples` fed in chunks of the sizes given (cycled), then finished.
    static func segments(_ samples: [Float], chunks: [Int], detector: any VoiceActivityDetector) throws -> [LiveSpeechSegment] {
        let segmenter = try StreamingSpeechSegmenter(detector: detector)
        var segments: [LiveSpeechSegment] = []
        var position = 0, index = 0
        while position < samples.count {
            let end = min(samples.count, position + chunks[index % chunks.count])
            segments += try segmenter.append(samples[position..<end])
            position = end
            index += 1
        }
        return segments + (try segmenter.finish())
    }

    @Test func unevenChunksGiveTheSameSegmentsAsAllAtOnce() async throws {
        let detector = try await Self.detector()
        let (samples, _, _) = try await Self.twoUtterances()
        let whole = try Self.segments(samples, chunks: [samples.count], detector: detector)
        let uneven = try Self.segments(samples, chunks: [1, 37, 512, 1000, 3, 4096, 160, 511, 513], detector: detector)
        #expect(!whole.isEmpty)
        #expect(uneven == whole)
    }

    @Test func twoUtterancesApartGiveTwoSegments() async throws {
        let detector = try await Self.detector()
        let (samples, first, second) = try await Self.twoUtterances()
        let segments = try Self.segments(samples, chunks: [1024], detector: detector)
        try #require(segments.count == 2, "segments: \(segments.map { ($0.start, $0.end) })")
        // Each segment holds its sentence (Piper's own leading and trailing quiet aside) and not the other.
        let slack = Self.rate / 4
        #expect(segments[0].startSample <= first.lowerBound + slack && segments[0].endSample >= first.upperBound - slack)
        #expect(segments[0].endSample < second.lowerBound)
        #expect(segments[1].startSample > first.upperBound)
        #expect(segments[1].startSample <= second.lowerBound + slack && segments[1].endSample >= second.upperBound - slack)
        #expect(segments[1].samples == Array(samples[segments[1].startSample..<segments[1].endSample]))
    }

    @Test func silenceGivesNoSegmentAndMemoryStaysBounded() async throws {
        let detector = try await Self.detector()
        let segmenter = try StreamingSpeechSegmenter(detector: detector)
        // 60 s of faint noise (a quiet room), fed as a capture delivers it (64 ms chunks).
        var generator = SystemRandomNumberGenerator()
        let chunk = 1024
        var largest = 0
        for _ in 0..<(60 * Self.rate / chunk) {
            let noise = (0..<chunk).map { _ in Float.random(in: -0.001...0.001, using: &generator) }
            #expect(try segmenter.append(noise).isEmpty)
            largest = max(largest, segmenter.bufferedSamples)
        }
        #expect(try segmenter.finish().isEmpty)
        #expect(segmenter.receivedSamples == 60 * Self.rate / chunk * chunk)
        // The padding (0.3 s), eight windows held before a trim, and one chunk: under 0.7 s of audio.
        #expect(largest < Self.rate * 7 / 10, "held \(largest) samples")
    }

    @Test func longSpeechIsSplitAtTheMaximum() async throws {
        let detector = try await Self.detector()
        let speech = try await Self.speech(Self.first + " " + Self.second)
        var options = LiveSegmentationOptions()
        options.maxSpeechDuration = 2
        let segmenter = try StreamingSpeechSegmenter(detector: detector, options: options)
        var segments = try segmenter.append(Self.silence(0.5) + speech + Self.silence(1))
        segments += try segmenter.finish()
        #expect(segments.count >= 2)
        // No segment longer than the maximum and its padding.
        #expect(segments.allSatisfy { $0.end - $0.start <= 2 + 2 * options.speechPad + 0.05 }, "\(segments.map { $0.end - $0.start })")
    }

    @Test(.needs(model: "whisper-tiny.en")) func liveTranscriberRecognisesEachUtteranceFromChunks() async throws {
        _ = try InstalledVoices.model("whisper-tiny.en")
        let (samples, first, second) = try await Self.twoUtterances()
        let engine = Engine(phonemizer: EspeakPhonemizer())
        let transcriber = try await engine.liveTranscriber(model: "whisper-tiny.en", options: LiveRecognitionOptions(
            transcription: TranscriptionOptions(language: "en", beamSize: 1), partialInterval: 0.5))
        let audio = AsyncThrowingStream<[Float], any Error> { continuation in
            for start in stride(from: 0, to: samples.count, by: 1024) {
                continuation.yield(Array(samples[start..<min(samples.count, start + 1024)]))
            }
            continuation.finish()
        }
        var utterances: [LiveUtterance] = []
        for try await event in transcriber.events(from: audio) {
            if case .utterance(let utterance) = event { utterances.append(utterance) }
        }
        try #require(utterances.count == 2, "\(utterances.map(\.text))")
        #expect(utterances[0].text.lowercased().contains("quick brown fox"))
        #expect(utterances[1].text.lowercased().contains("morning"))
        // Times from the start of the input.
        let seconds = { (sample: Int) in Double(sample) / Double(Self.rate) }
        #expect(abs(utterances[0].segments[0].start - seconds(first.lowerBound)) < 0.6)
        #expect(abs(utterances[1].segments[0].start - seconds(second.lowerBound)) < 0.6)
        #expect(utterances[1].start > seconds(first.upperBound))
    }
}
