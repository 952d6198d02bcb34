import Testing
@testable import WarbleServer

@Suite(.timeLimit(.minutes(1))) struct AdmissionControlTests {
    @Test func waitersAreServedInArrivalOrder() async throws {
        let admission = AdmissionControl(maxActive: 1, maxQueued: 2)
        let holder = try await admission.acquire(waitingAtMost: .seconds(1))
        let order = Order()
        let first = Task { let permit = try await admission.acquire(waitingAtMost: .seconds(5)); await order.add(1); return permit }
        await admission.waitUntil(queued: 1)
        let second = Task { let permit = try await admission.acquire(waitingAtMost: .seconds(5)); await order.add(2); return permit }
        await admission.waitUntil(queued: 2)
        await #expect(throws: APIError.self) { _ = try await admission.acquire(waitingAtMost: .seconds(5)) }
        await holder.release(.completed)
        let permit = try await first.value
        #expect(await order.values == [1])
        await permit.release(.completed)
        try await second.value.release(.completed)
        #expect(await order.values == [1, 2])
        #expect(await admission.active == 0)
        #expect(await admission.counters == .init(completed: 3, rejected: 1))
    }

    @Test func aWaitLongerThanTheLimitIs429() async throws {
        let admission = AdmissionControl(maxActive: 1, maxQueued: 4)
        let holder = try await admission.acquire(waitingAtMost: .seconds(1))
        let error = await #expect(throws: APIError.self) { _ = try await admission.acquire(waitingAtMost: .milliseconds(100)) }
        #expect(error?.status == .tooManyRequests)
        #expect(error?.message.contains("no synthesis slot") == true)
        #expect(await admission.queued == 0)
        await holder.release(.completed)
        #expect(await admission.active == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let admission = AdmissionControl(maxActive: 1, maxQueued: 4)
        let holder = try await admission.acquire(waitingAtMost: .seconds(1))
        let waiter = Task { try await admission.acquire(waitingAtMost: .seconds(30)) }
        await admission.waitUntil(queued: 1)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiter.value }
        #expect(await admission.queued == 0)
        await holder.release(.completed)
        #expect(await admission.active == 0)
    }

    @Test func aDroppedPermitIsReleased() async throws {
        let admission = AdmissionControl(maxActive: 1, maxQueued: 0)
        do { _ = try await admission.acquire(waitingAtMost: .seconds(1)) }
        await admission.waitUntil(active: 0)
        let again = try await admission.acquire(waitingAtMost: .seconds(1))
        await again.release(.completed)
        await again.release(.failed)  // a second release changes nothing
        // The dropped permit's request never answered: its client went away.
        #expect(await admission.counters == .init(completed: 1, cancelled: 1))
    }

    /// A waiter cancelled just as a release hands it the slot (a hang-up racing another request's end)
    /// gives the slot back and is counted as cancelled, once.
    @Test func aSlotHandedToACancelledWaiterComesBack() async throws {
        let admission = AdmissionControl(maxActive: 1, maxQueued: 4)
        let holder = try await admission.acquire(waitingAtMost: .seconds(1))
        let waiter = Task { try await admission.acquire(waitingAtMost: .seconds(30)) }
        await admission.waitUntil(queued: 1)
        await admission.cancelWhileReleasing(holder, waiter)
        await #expect(throws: CancellationError.self) { _ = try await waiter.value }
        await admission.waitUntil(active: 0, queued: 0)
        #expect(await admission.counters == .init(completed: 1, cancelled: 1))
    }

    actor Order {
        var values: [Int] = []
        func add(_ value: Int) { values.append(value) }
    }
}

extension AdmissionControl {
    /// Cancels `waiter` and releases `holder` in one turn of the actor: the release hands the slot to
    /// the waiter before the cancellation's own clean-up can run.
    func cancelWhileReleasing(_ holder: AdmissionPermit, _ waiter: Task<AdmissionPermit, any Error>) {
        waiter.cancel()
        release(holder.id, outcome: .completed)
    }
}
