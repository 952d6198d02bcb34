import WarbleSpeech
import Foundation
import Testing
import WarbleAudio
@testable import WarbleModels
import WarbleTestSupport

/// Bad input gives clear errors (never a crash); silence gives nothing; requests run concurrently
/// and stop when cancelled.
@Suite("Whisper input handling and concurrency", .serialized)
struct WhisperInputTests {
    @Test(.needs(model: "whisper-tiny.en"), .needsRuntime) func emptyAudioIsAClearError() async throws {
        let recognizer = WhisperRecognizer(model: try WhisperFixtures.model("whisper-tiny.en"))
        let empty = AudioBuffer(mono: [], sampleRate: 16000)
        await #expect {
            _ = try await recognizer.transcribeAll(empty, options: .init())
        } throws: { error in
            (error as? ModelError)?.kind == .badInput && "\(error)".contains("empty")
        }
    }

    @Test func nonAudioBytesAreAClearError() throws {
        let text = Data("this is a text file, not audio\n".utf8)
        #expect {
            _ = try SoundFile.decode(text)
        } throws: { error in
            !"\(error)".isEmpty
        }
    }

    /// A WAV cut in the middle of its data: either the samples that are there are recognised, or a
    /// clear error; never a crash.
    @Test(.needs(fixtures: "whisper"), .needs(model: "whisper-tiny.en"), .needsRuntime) func truncatedWAVIsRecognisedOrAClearError() async throws {
        let url = WhisperFixtures.whisperDirectory.appendingPathComponent("en_fox.wav")
        guard let whole = FileManager.default.contents(atPath: url.path) else { throw WhisperFixtures.Missing(what: url.path) }
        let cut = whole.prefix(whole.count / 2 + 1)  // odd length: a half sample at the end
        let recognizer = WhisperRecognizer(model: try WhisperFixtures.model("whisper-tiny.en"))
        switch Result(catching: { () throws(SoundFileError) -> AudioBuffer in try SoundFile.decode(Data(cut)) }) {
        case .success(let audio):
            #expect(audio.frameCount < 82112)
            let segments = try await recognizer.transcribeAll(audio, options: WhisperFixtures.greedyOptions(nil))
            #expect(segments.map(\.text).joined().lowercased().contains("quick"))
        case .failure(let error):
            #expect(!error.description.isEmpty)
        }
        switch Result(catching: { () throws(SoundFileError) -> AudioBuffer in try SoundFile.decode(Data(whole.prefix(44))) }) {
        case .success(let audio):
            var failed = false
            do { _ = try await recognizer.transcribeAll(audio, options: .init()) } catch { failed = error is ModelError }
            #expect(failed, "a header without samples must be a clear error")
        case .failure(let error):
            #expect(!error.description.isEmpty)
        }
    }

    @Test(.needs(fixtures: "whisper"), .needs(model: "whisper-base"), .needsRuntime) func unknownLanguageIsAClearError() async throws {
        let base = WhisperRecognizer(model: try WhisperFixtures.model("whisper-base"))
        let audio = try WhisperFixtures.clip(WhisperFixtures.whisperDirectory, "en_fox.wav")
        await #expect {
            _ = try await base.transcribeAll(audio, options: .init(language: "xx"))
        } throws: { error in
            (error as? ModelError)?.kind == .unknownVoice && "\(error)".contains("'xx'") && "\(error)".contains("de")
        }
        let tiny = WhisperRecognizer(model: try WhisperFixtures.model("whisper-tiny.en"))
        await #expect {
            _ = try await tiny.transcribeAll(audio, options: .init(language: "de"))
        } throws: { error in
            "\(error)".contains("English-only")
        }
    }

    @Test func missingModelNamesTheInstallCommand() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-whisper-\(UUID())")
        #expect {
            _ = try WhisperModel(directory: missing)
        } throws: { error in
            "\(error)".contains("warble models pull")
        }
    }

    @Test(.needs(model: "whisper-tiny.en"), .needs(model: "whisper-base"), .needsRuntime, arguments: ["whisper-tiny.en", "whisper-base"])
    func pureSilenceGivesNoText(model id: String) async throws {
        let recognizer = WhisperRecognizer(model: try WhisperFixtures.model(id))
        let silence = AudioBuffer(mono: [Float](repeating: 0, count: 16000 * 10), sampleRate: 16000)
        let segments = try await recognizer.transcribeAll(silence, options: .init(language: "en"))
        #expect(segments.isEmpty, "hallucinated: \(segments.map(\.text))")
    }

    @Test(.needs(fixtures: "whisper"), .needs(model: "whisper-tiny.en"), .needsRuntime) func anySampleRateAndChannelCount() async throws {
        let recognizer = WhisperRecognizer(model: try WhisperFixtures.model("whisper-tiny.en"))
        let clip = try WhisperFixtures.clip(WhisperFixtures.whisperDirectory, "en_fox.wav")
        let stereo44k = try AudioBuffer(channels: [clip.samples, clip.samples], sampleRate: 16000).resampled(to: 44100)
        let segments = try await recognizer.transcribeAll(stereo44k, options: WhisperFixtures.greedyOptions(nil))
        let text = segments.map(\.text).joined().lowercased()
        #expect(text.contains("lazy dog") && text.contains("sunny day"), "got \(text)")
    }

    @Test(.needs(fixtures: "whisper"), .needs(model: "whisper-tiny.en"), .needsRuntime)
    func concurrentRequestsGiveTheSameTokensAsOneAtATime() async throws {
        let recognizer = WhisperRecognizer(model: try WhisperFixtures.model("whisper-tiny.en"))
        let names = ["en_fox.wav", "en_weather.wav", "en_numbers.wav"]
        let clips = try names.map { try WhisperFixtures.clip(WhisperFixtures.whisperDirectory, $0) }
        let options = WhisperFixtures.greedyOptions(nil)
        var serial: [[Int]] = []
        for clip in clips { serial.append(try await recognizer.transcribeAll(clip, options: options).flatMap(\.tokens)) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, [Int]).self) { group in
            for (i, clip) in clips.enumerated() {
                group.addTask { (i, try await recognizer.transcribeAll(clip, options: options).flatMap(\.tokens)) }
            }
            var out = [[Int]](repeating: [], count: clips.count)
            for try await (i, tokens) in group { out[i] = tokens }
            return out
        }
        #expect(concurrent == serial)
        #expect(serial.allSatisfy { !$0.isEmpty })
    }

    @Test(.needs(fixtures: "whisper"), .needs(model: "whisper-tiny.en"), .needsRuntime) func cancellationStopsTheWork() async throws {
        let recognizer = WhisperRecognizer(model: try WhisperFixtures.model("whisper-tiny.en"))
        let clip = try WhisperFixtures.clip(WhisperFixtures.whisperDirectory, "en_fox.wav")
        // Ten minutes of speech (20 windows or more): far from done when the first segment arrives.
        let long = AudioBuffer(mono: Array([[Float]](repeating: clip.samples, count: 120).joined()), sampleRate: 16000)
        let (first, signal) = AsyncStream<Int>.makeStream()
        let task = Task {
            var count = 0
            for try await _ in recognizer.transcribe(long, options: WhisperFixtures.greedyOptions(nil)) {
                count += 1
                signal.yield(count)
            }
            try Task.checkCancellation()
            return count
        }
        for await _ in first { break }  // the first window is decoded
        task.cancel()
        // Cancelled, not run to the end: the stream stops with CancellationError instead of delivering
        // the other windows (how soon is a matter for benchmarks, not this test).
        switch await task.result {
        case .success(let count): Issue.record("not cancelled: \(count) segments")
        case .failure(let error): #expect(error is CancellationError, "\(error)")
        }
    }
}
