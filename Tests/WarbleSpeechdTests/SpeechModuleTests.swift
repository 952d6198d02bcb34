import Foundation
import Testing
import WarbleModels
@testable import WarbleSpeechd

/// Collects what the module sends, applying the gate when sent (a writer that is never behind).
final class Collector: ModuleOutput, @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    func send(_ message: [UInt8], gate: UtteranceToken?) {
        guard !(gate?.isStopped ?? false) else { return }
        lock.withLock { bytes += message }
    }

    /// The lines sent, audio payloads shown as "<audio N>" with N samples.
    var lines: [String] {
        var text = lock.withLock { bytes }
        var result: [String] = []
        while let newline = text.firstIndex(of: 0x0A) {
            let line = Array(text[..<newline])
            if let nul = line.firstIndex(of: 0) {
                // "705-AUDIO" NUL payload: the payload runs to the next line feed (escaped, so none inside).
                result.append(String(decoding: line[..<nul], as: UTF8.self))
                result.append("<audio \(AudioFrame.unescape(line[(nul + 1)...]).count / 2)>")
            } else {
                result.append(String(decoding: line, as: UTF8.self))
            }
            text.removeSubrange(...newline)
        }
        return result
    }

    /// The lines without the audio header lines (bits, channels, rate, count, endianness).
    var summary: [String] {
        lines.filter { !$0.hasPrefix("705-") || $0 == "705-AUDIO" }.filter { $0 != "705-AUDIO" && $0 != "705 AUDIO" }
    }

    func waitForFinal(count: Int = 1, timeout: Duration = .seconds(5)) async {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if lines.filter({ ["702 END", "703 STOP", "704 PAUSE"].contains($0) }).count >= count { return }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// A synthesizer that returns fixed chunks, optionally slowly, and records the requests.
final class FakeSynthesizer: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [SynthesisRequest] = []
    let chunks: [AudioChunk]
    let delay: Duration

    init(chunks: [AudioChunk], delay: Duration = .zero) {
        self.chunks = chunks
        self.delay = delay
    }

    var requests: [SynthesisRequest] { lock.withLock { seen } }

    func backend(voices: [VoiceDescription]) -> SpeechBackend {
        SpeechBackend(voices: voices, defaultVoice: voices.last) { request in
            self.lock.withLock { self.seen.append(request) }
            let chunks = self.chunks
            let delay = self.delay
            return AsyncThrowingStream { continuation in
                let task = Task {
                    for chunk in chunks {
                        if delay > .zero { try? await Task.sleep(for: delay) }
                        if Task.isCancelled { break }
                        continuation.yield(chunk)
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }
}

@Suite struct SpeechModuleTests {
    static let voices = [
        VoiceDescription(id: "kokoro-af_alpha", displayName: "Alpha", language: "en-US", model: "kokoro", sampleRate: 24000, gender: "female"),
        VoiceDescription(id: "en_US-joe-medium", displayName: "Joe", language: "en-US", model: "piper", sampleRate: 22050, gender: "male"),
    ]
    static let sentence = AudioChunk(samples: Array(repeating: 0.25, count: 6000), sampleRate: 22050,
                                     events: [.mark(name: "__spd_1", sampleOffset: 6000), .mark(name: "middle", sampleOffset: 1000)])
    static let tail = AudioChunk(samples: [], sampleRate: 22050, events: [.mark(name: "end", sampleOffset: 0)])

    func module(_ fake: FakeSynthesizer, prewarm: Bool = false) -> (SpeechModule, Collector) {
        var configuration = ModuleConfiguration()
        configuration.prewarm = prewarm
        let output = Collector()
        return (SpeechModule(backend: fake.backend(voices: Self.voices), output: output, log: ModuleLog(level: 0),
                             configuration: configuration), output)
    }

    @Test func initAudioAndVoiceList() async {
        let (module, output) = module(FakeSynthesizer(chunks: []))
        #expect(await module.handle(.initialize) == .proceed)
        _ = await module.handle(.audio([Setting("audio_output_method", "server")]))
        _ = await module.handle(.audio([Setting("audio_output_method", "pulse")]))
        _ = await module.handle(.listVoices(language: nil, variant: nil))
        _ = await module.handle(.listVoices(language: "de", variant: nil))
        #expect(await module.handle(.quit) == .exit(status: 0))
        #expect(output.lines == [
            "299-Warble: 2 voices, default en_US-joe-medium", "299 OK LOADED SUCCESSFULLY",
            "203 OK AUDIO INITIALIZED",
            "300-sd_warble plays through the server only (audio_output_method=server)", "300 MODULE ERROR",
            "200-kokoro-af_alpha\ten-US\tfemale", "200-en_US-joe-medium\ten-US\tmale", "200 OK VOICE LIST SENT",
            "304 CANT LIST VOICES",
            "210 OK QUIT",
        ])
    }

    @Test func noVoicesCannotInit() async {
        let output = Collector()
        let backend = SpeechBackend(voices: [], defaultVoice: nil) { _ in AsyncThrowingStream { $0.finish() } }
        let module = SpeechModule(backend: backend, output: output, log: ModuleLog(level: 0))
        #expect(await module.handle(.initialize) == .exit(status: 1))
        #expect(output.lines.last == "399 ERR CANT INIT MODULE")
    }

    @Test func speakSendsBeginAudioMarksInStreamOrderThenEnd() async throws {
        let fake = FakeSynthesizer(chunks: [Self.sentence, Self.tail])
        let (module, output) = module(fake)
        _ = await module.handle(.set([Setting("rate", "0"), Setting("synthesis_voice", "NULL")]))
        _ = await module.handle(.speak(.text, #"<speak>Hi<mark name="middle"/> there.<mark name="__spd_1"/><mark name="end"/></speak>"#))
        await output.waitForFinal()
        #expect(output.summary == [
            "203 OK SETTINGS RECEIVED", "200 OK SPEAKING", "701 BEGIN",
            "<audio 1000>", "700-middle", "700 INDEX MARK",
            "<audio 1024>", "<audio 1024>", "<audio 1024>", "<audio 1024>", "<audio 904>", "700-__spd_1", "700 INDEX MARK",
            "700-end", "700 INDEX MARK", "702 END",
        ])
        #expect(output.lines.contains("705-sample_rate=22050"))
        let request = try #require(fake.requests.first)
        #expect(request.isSSML)
        #expect(request.voice == "en_US-joe-medium")
        #expect(request.rate == 1)
    }

    @Test func pitchIsPlayedFasterAndRateCompensated() async throws {
        let fake = FakeSynthesizer(chunks: [AudioChunk(samples: [0.1, 0.2], sampleRate: 22050)])
        let (module, output) = module(fake)
        _ = await module.handle(.set([Setting("pitch", "100"), Setting("rate", "0")]))
        _ = await module.handle(.speak(.text, "Hello"))
        await output.waitForFinal()
        let factor = 2.0.squareRoot()
        #expect(output.lines.contains("705-sample_rate=\(Int((22050 * factor).rounded()))"))
        let request = try #require(fake.requests.first)
        #expect(abs(request.rate - 1 / factor) < 1e-9)
        #expect(request.pitch == 1)
        #expect(!request.isSSML)
    }

    @Test func stopEndsWithStopAndNothingAfter() async {
        let chunks = Array(repeating: AudioChunk(samples: Array(repeating: 0.1, count: 100), sampleRate: 22050,
                                                 events: [.mark(name: "__spd_x", sampleOffset: 100)]), count: 50)
        let (module, output) = module(FakeSynthesizer(chunks: chunks, delay: .milliseconds(20)))
        _ = await module.handle(.speak(.text, "Long"))
        try? await Task.sleep(for: .milliseconds(150))
        _ = await module.handle(.stop)
        let stopped = output.lines.count
        try? await Task.sleep(for: .milliseconds(200))
        let lines = output.lines
        #expect(lines.last == "703 STOP")
        #expect(lines.count == stopped, "nothing is sent after 703 STOP")
        #expect(lines.filter { $0 == "701 BEGIN" }.count == 1)
        #expect(!lines.contains("702 END"))
        // A second STOP while idle sends nothing.
        _ = await module.handle(.stop)
        #expect(output.lines.count == stopped)
    }

    @Test func pauseEndsAfterTheNextSpeechDispatcherMark() async {
        let chunks = (0..<20).map { index in
            AudioChunk(samples: Array(repeating: 0.1, count: 100), sampleRate: 22050,
                       events: [.mark(name: index.isMultiple(of: 2) ? "user\(index)" : "__spd_\(index)", sampleOffset: 100)])
        }
        let (module, output) = module(FakeSynthesizer(chunks: chunks, delay: .milliseconds(20)))
        _ = await module.handle(.speak(.text, "Long"))
        try? await Task.sleep(for: .milliseconds(90))
        _ = await module.handle(.pause)
        await output.waitForFinal()
        let summary = output.summary
        #expect(summary.last == "704 PAUSE")
        let marks = summary.filter { $0.hasPrefix("700-") }
        #expect(marks.last?.hasPrefix("700-__spd_") == true, "the last mark before PAUSE is a __spd_ mark: \(marks)")
        #expect(marks.count < 20)
    }

    @Test func charactersAreCachedAndKeysSpokenAsWords() async {
        let fake = FakeSynthesizer(chunks: [AudioChunk(samples: [0.5, -0.5], sampleRate: 22050)])
        let (module, output) = module(fake)
        _ = await module.handle(.speak(.character, "a"))
        await output.waitForFinal(count: 1)
        _ = await module.handle(.speak(.character, "a"))
        await output.waitForFinal(count: 2)
        _ = await module.handle(.speak(.key, "shift_a"))
        await output.waitForFinal(count: 3)
        #expect(fake.requests.map(\.text) == ["A", "shift A"], "the second 'a' came from the cache")
        #expect(fake.requests.allSatisfy { $0.sentencePause == 0 })
        #expect(await module.cachedMessages == 2)
        #expect(output.summary.filter { $0.hasPrefix("<audio") } == ["<audio 2>", "<audio 2>", "<audio 2>"])
    }

    @Test func soundIconWithoutAFileIsSpoken() async {
        let fake = FakeSynthesizer(chunks: [AudioChunk(samples: [0.5], sampleRate: 22050)])
        let (module, output) = module(fake)
        _ = await module.handle(.speak(.soundIcon, "message-new"))
        await output.waitForFinal()
        #expect(fake.requests.map(\.text) == ["message new"])
    }

    @Test func badSettingIsRefusedButOthersApply() async {
        let (module, output) = module(FakeSynthesizer(chunks: []))
        _ = await module.handle(.set([Setting("rate", "fast"), Setting("pitch", "10")]))
        #expect(output.lines == ["303 ERROR INVALID PARAMETER OR VALUE"])
        #expect(await module.currentSettings.pitch == 10)
    }

    @Test func unknownVoiceFallsBackToTheDefault() async throws {
        let fake = FakeSynthesizer(chunks: [AudioChunk(samples: [0.5], sampleRate: 22050)])
        let (module, output) = module(fake)
        _ = await module.handle(.set([Setting("synthesis_voice", "nobody")]))
        _ = await module.handle(.speak(.text, "Hi"))
        await output.waitForFinal()
        #expect(try #require(fake.requests.first).voice == "en_US-joe-medium")
    }
}

@Suite struct PacingTests {
    @Test func audioIsSentAtMostTheLeadAheadOfPlayback() async throws {
        // 1 s of audio at 1 kHz in 100-sample frames, with a 200 ms lead: about 0.8 s to send it all.
        var pacer = Pacer(lead: .milliseconds(200))
        let start = ContinuousClock.now
        for _ in 0..<10 {
            try await pacer.wait()
            pacer.sent(samples: 100, rate: 1000)
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(650), "sent too far ahead: \(elapsed)")
        #expect(elapsed < .seconds(3))
        // Without a lead nothing waits.
        var free = Pacer(lead: nil)
        let quick = ContinuousClock.now
        for _ in 0..<10 {
            try await free.wait()
            free.sent(samples: 100, rate: 1000)
        }
        #expect(ContinuousClock.now - quick < .milliseconds(200))
    }

    @Test func piecesSplitAudioAtMarks() {
        let chunk = AudioChunk(samples: Array(repeating: 0, count: 10), sampleRate: 1000,
                               events: [.mark(name: "b", sampleOffset: 4), .mark(name: "a", sampleOffset: 0),
                                        .mark(name: "c", sampleOffset: 4), .mark(name: "z", sampleOffset: 99)])
        #expect(SpeechModule.pieces(of: chunk) == [.mark("a"), .audio(upTo: 4), .mark("b"), .mark("c"), .audio(upTo: 10), .mark("z")])
    }
}

@Suite struct PrewarmTests {
    @Test func lettersAndDigitsAreRenderedAtInitAndServedFromTheCache() async {
        let fake = FakeSynthesizer(chunks: [AudioChunk(samples: [0.5, -0.5], sampleRate: 22050)])
        var configuration = ModuleConfiguration()
        configuration.prewarm = true
        let output = Collector()
        let module = SpeechModule(backend: fake.backend(voices: SpeechModuleTests.voices), output: output,
                                  log: ModuleLog(level: 0), configuration: configuration)
        _ = await module.handle(.initialize)
        let end = ContinuousClock.now + .seconds(5)
        while await module.cachedMessages < 36, ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(5)) }
        #expect(await module.cachedMessages == 36)
        #expect(fake.requests.count == 36)
        #expect(fake.requests.first?.text == "A" && fake.requests.last?.text == "nine")
        _ = await module.handle(.speak(.character, "q"))
        await output.waitForFinal()
        #expect(fake.requests.count == 36, "q came from the cache")
        #expect(output.summary.suffix(3) == ["701 BEGIN", "<audio 2>", "702 END"])
    }
}
