import Foundation
import Testing
import WarbleSpeech

@Suite struct CancellationTokenTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    @Test func handlersRunOnceWhenCancelled() throws {
        let token = CancellationToken()
        let counter = Counter()
        token.onCancel { counter.increment() }
        token.onCancel { counter.increment() }
        #expect(!token.isCancelled)
        try token.check()
        token.cancel()
        token.cancel()
        #expect(token.isCancelled)
        #expect(counter.count == 2)
        #expect(throws: CancellationError.self) { try token.check() }
    }

    @Test func aHandlerAddedAfterCancellingRunsAtOnce() {
        let token = CancellationToken()
        token.cancel()
        let counter = Counter()
        token.onCancel { counter.increment() }
        #expect(counter.count == 1)
    }

    @Test func aRemovedHandlerDoesNotRun() {
        let token = CancellationToken()
        let counter = Counter()
        let registration = token.onCancel { counter.increment() }
        registration.cancel()
        token.cancel()
        #expect(counter.count == 0)
    }

    @Test func cancellingFromManyThreadsRunsEachHandlerOnce() async {
        let token = CancellationToken()
        let counter = Counter()
        for _ in 0..<50 { token.onCancel { counter.increment() } }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { token.cancel() } }
        }
        #expect(counter.count == 50)
    }
}
