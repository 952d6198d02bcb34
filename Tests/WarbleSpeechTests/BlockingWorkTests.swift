import Dispatch
import Foundation
import Testing
@testable import WarbleSpeech

/// The one way blocking work runs: off the cooperative pool, its token cancelled when the waiting task is
/// cancelled or the stream's consumer stops.
@Suite("BlockingWork")
struct BlockingWorkTests {
    @Test func returnsTheResultOrTheError() async throws {
        #expect(try await BlockingWork.run { 6 * 7 } == 42)
        await #expect(throws: CancellationError.self) { try await BlockingWork.run { throw CancellationError() } }
    }

    /// A consumer whose task is cancelled while it waits for the next element cancels the work's token: the work,
    /// blocked until it is, sees the cancellation and ends (the token's handler is the kind a family ties to ONNX
    /// Runtime's terminate flag).
    @Test func aCancelledConsumerCancelsTheToken() async throws {
        let sawCancel = DispatchSemaphore(value: 0)
        let stream: AsyncThrowingStream<Int, any Error> = BlockingWork.stream { cancel, yield in
            let stop = DispatchSemaphore(value: 0)
            cancel.onCancel { stop.signal() }
            yield(1)
            // Waits for the consumer to go (bounded, so that a regression fails instead of hanging).
            if stop.wait(timeout: .now() + 60) == .success { sawCancel.signal() }
            try cancel.check()
            yield(2)
        }
        let (gotFirst, firstArrived) = AsyncStream.makeStream(of: Int.self)
        let consumer = Task {
            var seen: [Int] = []
            for try await value in stream {
                seen.append(value)
                firstArrived.yield(value)
            }
            return seen
        }
        var firsts = gotFirst.makeAsyncIterator()
        #expect(await firsts.next() == 1)
        consumer.cancel()
        let result = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: sawCancel.wait(timeout: .now() + 60)) }
        }
        #expect(result == .success)
        let seen = try? await consumer.value
        #expect(seen == nil || seen == [1])
    }

    @Test func cancellingTheWaitingTaskCancelsTheToken() async throws {
        let started = DispatchSemaphore(value: 0)
        let token = CancellationToken()
        let task = Task {
            try await BlockingWork.run(cancel: token) { cancel in
                started.signal()
                let stop = DispatchSemaphore(value: 0)
                cancel.onCancel { stop.signal() }
                _ = stop.wait(timeout: .now() + 60)
                try cancel.check()
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { started.wait(); continuation.resume() }
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(token.isCancelled)
    }

    @Test func aStreamEndsWithTheWorksError() async throws {
        struct Broken: Error {}
        let stream: AsyncThrowingStream<Int, any Error> = BlockingWork.stream { _, yield in
            yield(1)
            throw Broken()
        }
        var seen: [Int] = []
        await #expect(throws: Broken.self) { for try await value in stream { seen.append(value) } }
        #expect(seen == [1])
    }
}

