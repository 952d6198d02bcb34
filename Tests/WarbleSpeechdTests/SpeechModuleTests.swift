import Foundation
import Testing
import WarbleSpeech
@testable import WarbleSpeechd

/// Collects what the module sends, applying the gate when sent (a writer that is never behind), and
/// wakes the tests waiting for a line.
final class Collector: ModuleOutput, @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var waiters: [(condition: @Sendable ([String]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    func send(_ message: [UInt8], gate: UtteranceToken?) {
        guard !(gate?.isStopped ?? false) else { return }
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            bytes += message
            let lines = Self.lines(of: bytes)
            let (met, waiting) = (waiters.filter { $0.condition(lines) }, waiters.filter { !$0.condition(lines) })
            waiters = waiting
            return met.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// The lines sent, audio payloads shown as "<audio N>" with N samples.
    var lines: [String] { Self.lines(of: lock.withLock { bytes }) }

    private static func lines(of bytes: [UInt8]) -> [String] {
        var text = bytes[...]
        var result: [String] = []
        while let newline = text.firstIndex(of: 0x0A) {
            let line = text[..<newline]
            if let nul = line.firstIndex(of: 0) {
                // "705-AUDIO" NUL payload: the payload runs to the next line feed (escaped, so none inside).
                result.append(String(decoding: line[..<nul], as: UTF8.self))
                result.append("<audio \(AudioFrame.unescape(line[(nul + 1)...]).count / 2)>")
            } else {
                result.append(String(decoding: line, as: UTF8.self))
            }
            text = text[(newline + 1)...]
        }
        return result
    }

    /// The lines without the audio header lines (bits, channels, rate, count, endianness).
    var summary: [String] {
        lines.filter { !$0.hasPrefix("705-") || $0 == "705-AUDIO" }.filter { $0 != "705-AUDIO" && $0 != "705 AUDIO" }
    }

    /// Returns once the lines sent satisfy `condition` (at once if they already do).
    func wait(until condition: @escaping @Sendable ([String]) -> Bool) async {
        await withCheckedContinuation { continuation in
            let met = lock.withLock { () -> Bool in
                if condition(Self.lines(of: bytes)) { return true }
                waiters.append((condition, continuation))
                return false
            }
            if met { continuation.resume() }
        }
    }

    /// Returns once `count` messages have ended (END, STOP or PAUSE).
    func waitForFinal(count: Int = 1) async {
        await wait { $0.filter { ["702 END", "703 STOP", "704 PAUSE"].contains($0) }.count >= count }
    }
}

/// A gate that opens once: `wait()` returns when `open()` was called or the waiting task is cancelled.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            isOpen = true
            defer { waiters = [] }
            return waiters
        }
        for continuation in waiting { continuation.resume() }
    }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let open = lock.withLock { () -> Bool in
                    if isOpen { return true }
                    waiters.append(continuation)
                    return false
                }
                if open { continuation.resume() }
            }
        } onCancel: {
            open()
        }
    }
}

/// A synthesizer that returns fixed chunks and records the requests. With `holdAfter: n` it yields
/// n chunks, then waits until the test calls `release()` (slow synthesis, on the test's cue);
/// `ended` opens when the stream of the last request has finished or was cancelled.
final class FakeSynthesizer: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [SynthesisRequest] = []
    let chunks: [AudioChunk]
    let holdAfter: Int?
    private let gate = Gate()
    let ended = Gate()

    init(chunks: [AudioChunk], holdAfter: Int? = nil) {
        self.chunks = chunks
        self.holdAfter = holdAfter
    }

    var requests: [SynthesisRequest] { lock.withLock { seen } }

    func release() { gate.open() }

    func backend(voices: [VoiceDescription]) -> SpeechBackend {
        SpeechBackend(voices: voices, defaultVoice: voices.last) { request in
            self.lock.withLock { self.seen.append(request) }
            let (chunks, holdAfter, gate, ended) = (self.chunks, self.holdAfter, self.gate, self.ended)
            return AsyncThrowingStream { continuation in
                let task = Task {
                    for (index, chunk) in chunks.enumerated() {
                        if index == holdAfter { await gate.wait() }
                        if Task.isCancelled { break }
                        continuation.yield(chunk)
                    }
                    continuation.finish()
                    ended.open()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct SpeechModuleTests {
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
        let fake = FakeSynthesizer(chunks: chunks, holdAfter: 3)
        let (module, output) = module(fake)
        _ = await module.handle(.speak(.text, "Long"))
        await output.wait { $0.filter { $0 == "700-__spd_x" }.count == 3 }  // synthesis is now held
        _ = await module.handle(.stop)
        let stopped = output.lines.count
        fake.release()  // were STOP ignored, the 47 other chunks would now be spoken
        await fake.ended.wait()
        await module.waitUntilSpoken()
        let lines = output.lines
        #expect(lines.last == "703 STOP")
        #expect(lines.count == stopped, "nothing is sent after 703 STOP")
        #expect(lines.filter { $0 == "701 BEGIN" }.count == 1)
        #expect(lines.filter { $0 == "700-__spd_x" }.count == 3)
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
        let fake = FakeSynthesizer(chunks: chunks, holdAfter: 3)
        let (module, output) = module(fake)
        _ = await module.handle(.speak(.text, "Long"))
        await output.wait { $0.contains("700-user2") }  // three chunks out, synthesis held
        _ = await module.handle(.pause)
        fake.release()
        await output.waitForFinal()
        let summary = output.summary
        #expect(summary.last == "704 PAUSE")
        let marks = summary.filter { $0.hasPrefix("700-") }
        #expect(marks == ["700-user0", "700-__spd_1", "700-user2", "700-__spd_3"],
                "PAUSE comes after the first __spd_ mark once it was asked for")
    }

    @Test func charactersAreCachedAndKeysSpokenAsWords() async {
        let fake = FakeSynthesizer(chunks: [AudioChunk(samples: [0.5, -0.5], sampleRate: 22050)])
        let (module, output) = module(fake)
        // Each message is done (END sent, then its frames cached) before the next.
        _ = await module.handle(.speak(.character, "a"))
        await module.waitUntilSpoken()
        _ = await module.handle(.speak(.character, "a"))
        await module.waitUntilSpoken()
        _ = await module.handle(.speak(.key, "shift_a"))
        await module.waitUntilSpoken()
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

/// A clock whose time moves only when someone sleeps on it (or the test advances it), so pacing is
/// checked by what the pacer asked for, not by how long the machine took.
final class TestClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let lock = NSLock()
    private var time = Instant(offset: .zero)
    private var slept: [Duration] = []

    var now: Instant { lock.withLock { time } }
    var minimumResolution: Duration { .zero }
    var sleeps: [Duration] { lock.withLock { slept } }

    func advance(by duration: Duration) { lock.withLock { time = time.advanced(by: duration) } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        lock.withLock {
            slept.append(time.duration(to: deadline))
            if time < deadline { time = deadline }
        }
    }
}

@Suite struct PacingTests {
    @Test func audioIsSentAtMostTheLeadAheadOfPlayback() async throws {
        // 1 s of audio at 1 kHz in 100-sample frames, with a 200 ms lead: the first 0.3 s go at once,
        // then each frame waits 100 ms, 0.7 s in all, and the audio is never more than the lead ahead.
        let clock = TestClock()
        var pacer = Pacer(lead: .milliseconds(200), clock: clock)
        for _ in 0..<10 {
            try await pacer.wait()
            #expect(pacer.ahead <= .milliseconds(200))
            pacer.sent(samples: 100, rate: 1000)
        }
        // Tolerance: 1 µs (the pacer counts audio in Double seconds).
        func near(_ a: Duration, _ b: Duration) -> Bool { abs((a - b) / .microseconds(1)) < 1 }
        #expect(clock.sleeps.count == 7 && clock.sleeps.allSatisfy { near($0, .milliseconds(100)) }, "\(clock.sleeps)")
        #expect(near(clock.now.offset, .milliseconds(700)), "\(clock.now.offset)")
        // Synthesis slower than playback: nothing waits.
        let slow = TestClock()
        var behind = Pacer(lead: .milliseconds(200), clock: slow)
        for _ in 0..<10 {
            try await behind.wait()
            behind.sent(samples: 100, rate: 1000)
            slow.advance(by: .milliseconds(150))
        }
        #expect(slow.sleeps.isEmpty)
        // Without a lead nothing waits.
        let free = TestClock()
        var unpaced = Pacer(lead: nil, clock: free)
        for _ in 0..<10 {
            try await unpaced.wait()
            unpaced.sent(samples: 100, rate: 1000)
        }
        #expect(free.sleeps.isEmpty)
    }

    @Test func piecesSplitAudioAtMarks() {
        let chunk = AudioChunk(samples: Array(repeating: 0, count: 10), sampleRate: 1000,
                               events: [.mark(name: "b", sampleOffset: 4), .mark(name: "a", sampleOffset: 0),
                                        .mark(name: "c", sampleOffset: 4), .mark(name: "z", sampleOffset: 99)])
        #expect(SpeechModule.pieces(of: chunk) == [.mark("a"), .audio(upTo: 4), .mark("b"), .mark("c"), .audio(upTo: 10), .mark("z")])
    }
}

@Suite(.timeLimit(.minutes(1))) struct PrewarmTests {
    @Test func lettersAndDigitsAreRenderedAtInitAndServedFromTheCache() async {
        let fake = FakeSynthesizer(chunks: [AudioChunk(samples: [0.5, -0.5], sampleRate: 22050)])
        var configuration = ModuleConfiguration()
        configuration.prewarm = true
        let output = Collector()
        let module = SpeechModule(backend: fake.backend(voices: SpeechModuleTests.voices), output: output,
                                  log: ModuleLog(level: 0), configuration: configuration)
        _ = await module.handle(.initialize)
        await module.waitUntilPrewarmed()
        #expect(await module.cachedMessages == 36)
        #expect(fake.requests.count == 36)
        #expect(fake.requests.first?.text == "A" && fake.requests.last?.text == "nine")
        _ = await module.handle(.speak(.character, "q"))
        await output.waitForFinal()
        #expect(fake.requests.count == 36, "q came from the cache")
        #expect(output.summary.suffix(3) == ["701 BEGIN", "<audio 2>", "702 END"])
    }
}
