/// Bounded concurrency with a bounded queue: at most `maxActive` syntheses run; up to `maxQueued`
/// more wait in arrival order; beyond that, and when a wait outlasts its limit, the request is
/// refused with 429. Also keeps the counters `/health` reports.
actor AdmissionControl {
    let maxActive: Int
    let maxQueued: Int
    private(set) var active = 0 { didSet { notifyWatchers() } }
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = [] {
        didSet { notifyWatchers() }
    }
    private var watchers: [(active: Int?, queued: Int?, continuation: CheckedContinuation<Void, Never>)] = []
    private var live: Set<UInt64> = []
    private var nextID: UInt64 = 0
    private(set) var counters = Counters()

    struct Counters: Sendable, Codable, Equatable {
        var completed = 0
        /// Refused with 429.
        var rejected = 0
        /// Stopped by a 4xx found while starting (bad SSML, nothing to say).
        var refused = 0
        /// The client went away (or the request was cancelled) while waiting for a slot or running.
        var cancelled = 0
        var failed = 0
    }

    enum Outcome { case completed, cancelled, failed, refused }

    init(maxActive: Int, maxQueued: Int) {
        self.maxActive = max(1, maxActive)
        self.maxQueued = max(0, maxQueued)
    }

    var queued: Int { waiters.count }

    /// Returns once as many slots are taken and requests queued as asked (at once if they are now);
    /// for tests, which wait on this instead of polling.
    func waitUntil(active: Int? = nil, queued: Int? = nil) async {
        if matches(active, queued) { return }
        await withCheckedContinuation { watchers.append((active, queued, $0)) }
    }

    private func matches(_ active: Int?, _ queued: Int?) -> Bool {
        (active == nil || active == self.active) && (queued == nil || queued == waiters.count)
    }

    private func notifyWatchers() {
        guard !watchers.isEmpty else { return }
        let met = watchers.filter { matches($0.active, $0.queued) }
        watchers.removeAll { matches($0.active, $0.queued) }
        for watcher in met { watcher.continuation.resume() }
    }

    /// A slot, waiting up to `limit` for one; 429 when the queue is full or the wait runs out.
    func acquire(waitingAtMost limit: Duration) async throws -> AdmissionPermit {
        let id = nextID
        nextID += 1
        if active < maxActive {
            active += 1
        } else {
            guard waiters.count < maxQueued else {
                counters.rejected += 1
                throw APIError.busy("server busy: \(maxActive) syntheses running and \(waiters.count) waiting; retry shortly",
                                    retryAfterSeconds: 1)
            }
            let expiry = Task { [weak self] in
                try await Task.sleep(for: limit)
                await self?.expire(id, with: APIError.busy(
                    "server busy: no synthesis slot within \(limit.components.seconds) s; retry later",
                    retryAfterSeconds: 2))
            }
            defer { expiry.cancel() }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    waiters.append((id, continuation))
                }
            } onCancel: {
                Task { await self.expire(id, with: CancellationError()) }
            }
        }
        live.insert(id)
        // A slot handed over after the waiter was cancelled (its hang-up raced a release) goes back at once.
        if Task.isCancelled {
            release(id, outcome: .cancelled)
            throw CancellationError()
        }
        return AdmissionPermit(admission: self, id: id)
    }

    /// Frees a slot (once per permit), handing it to the oldest waiter.
    func release(_ id: UInt64, outcome: Outcome) {
        guard live.remove(id) != nil else { return }
        switch outcome {
        case .completed: counters.completed += 1
        case .cancelled: counters.cancelled += 1
        case .failed: counters.failed += 1
        case .refused: counters.refused += 1
        }
        if waiters.isEmpty {
            active -= 1
        } else {
            waiters.removeFirst().continuation.resume()
        }
    }

    private func expire(_ id: UInt64, with error: any Error) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        if error is APIError { counters.rejected += 1 } else { counters.cancelled += 1 }  // the client went away
        waiters.remove(at: index).continuation.resume(throwing: error)
    }
}

/// One admitted request's slot. Released explicitly with its outcome, or, as a backstop, when the
/// last reference goes: a response body that was never written, or a permit won by a request whose
/// client had just gone; either is counted as cancelled.
final class AdmissionPermit: Sendable {
    let admission: AdmissionControl
    let id: UInt64

    init(admission: AdmissionControl, id: UInt64) {
        self.admission = admission
        self.id = id
    }

    func release(_ outcome: AdmissionControl.Outcome) async {
        await admission.release(id, outcome: outcome)
    }

    deinit {
        let admission = self.admission, id = self.id
        Task { await admission.release(id, outcome: .cancelled) }
    }
}
