import Testing
@testable import WarbleSpeech

/// The one relay between a request and its run: started on the first pull, its owner told once when the request is
/// over, and its observer shown every chunk and, when the stream ended whole, nil.
@Suite("SynthesisRelay")
struct SynthesisRelayTests {
    /// What a relay told its owner and its observer.
    actor Log {
        var starts = 0
        var ends = 0
        var observed: [Int?] = []
        func started() { starts += 1 }
        func ended() { ends += 1 }
        func saw(_ chunk: AudioChunk?) { observed.append(chunk.map { $0.samples.count }) }
    }

    static func chunks(_ sizes: [Int], failing: Bool = false) -> AsyncThrowingStream<AudioChunk, any Error> {
        AsyncThrowingStream { continuation in
            for size in sizes { continuation.yield(AudioChunk(samples: [Float](repeating: 0.1, count: size), sampleRate: 16000)) }
            continuation.finish(throwing: failing ? ModelError(.failed, "broken") : nil)
        }
    }

    static func relay(_ log: Log, sizes: [Int], failing: Bool = false) -> SynthesisRelay {
        SynthesisRelay(observer: { await log.saw($0) }) {
            await log.started()
            return (chunks(sizes, failing: failing), { await log.ended() })
        }
    }

    @Test func startsOnTheFirstPullAndEndsOnce() async throws {
        let log = Log()
        let relay = Self.relay(log, sizes: [3, 5])
        #expect(await log.starts == 0)
        var sizes: [Int] = []
        for try await chunk in relay.stream { sizes.append(chunk.samples.count) }
        #expect(sizes == [3, 5])
        #expect(await log.starts == 1)
        #expect(await log.ends == 1)
        #expect(await log.observed == [3, 5, nil])
        #expect(try await relay.next() == nil)
        #expect(await log.ends == 1)
    }

    @Test func anErrorEndsTheRequestWithoutTellingTheObserverItEndedWhole() async throws {
        let log = Log()
        let relay = Self.relay(log, sizes: [4], failing: true)
        #expect(try await relay.next()?.samples.count == 4)
        await #expect(throws: ModelError.self) { _ = try await relay.next() }
        #expect(await log.ends == 1)
        #expect(await log.observed == [4])
    }

    @Test func closingEarlyEndsTheRequestOnce() async throws {
        let log = Log()
        let relay = Self.relay(log, sizes: [2, 2, 2])
        #expect(try await relay.next()?.samples.count == 2)
        await relay.close()
        await relay.close()
        #expect(await log.ends == 1)
        #expect(await log.observed == [2])
        #expect(try await relay.next() == nil)
    }
}
