/// The one relay between a request and its synthesis run: pulled a chunk at a time by whichever task
/// serves the request (a server's handler takes the first chunk, the response body the rest), it
/// starts the run on the first pull, and tells its owner once when the request is over: at the end of
/// the stream, on an error, on `close()`, or when the consumer drops it early. Cancelling the pulling
/// task stops the model run in progress.
public actor SynthesisRelay {
    /// Starts the run: its chunk stream, and what to do when the request is over.
    public typealias Start = @Sendable () async throws -> (stream: AsyncThrowingStream<AudioChunk, any Error>,
                                                           onEnd: @Sendable () async -> Void)
    /// Sees each chunk as it is handed out and, once the stream has ended whole, nil (not after an error or
    /// an early close): how the server's history keeps what was spoken without a relay of its own.
    public typealias Observer = @Sendable (AudioChunk?) async -> Void

    private var start: Start?
    private var iterator: AsyncThrowingStream<AudioChunk, any Error>.AsyncIterator?
    private var onEnd: (@Sendable () async -> Void)?
    private var done = false
    private var closing = false
    private let observer: Observer?

    /// A relay that starts its run on the first pull.
    public init(observer: Observer? = nil, start: @escaping Start) {
        self.start = start
        self.observer = observer
    }

    /// A relay over a stream already made.
    public init(_ stream: AsyncThrowingStream<AudioChunk, any Error>, observer: Observer? = nil) {
        iterator = stream.makeAsyncIterator()
        self.observer = observer
    }

    /// A consumer that stops early (breaks out of its loop, or is cancelled) drops the relay without
    /// reaching the end: the owner still hears that the request is over.
    deinit {
        if !done, let onEnd { Task { await onEnd() } }
    }

    /// The chunks as a stream (for consumers that iterate).
    public nonisolated var stream: AsyncThrowingStream<AudioChunk, any Error> {
        AsyncThrowingStream(unfolding: { try await self.next() })
    }

    /// The next chunk, or nil at the end.
    public func next() async throws -> AudioChunk? {
        if done { return nil }
        do {
            if let start {
                self.start = nil
                let started = try await start()
                iterator = started.stream.makeAsyncIterator()
                onEnd = started.onEnd
            }
            var current = iterator
            let chunk = try await current?.next(isolation: self)
            iterator = current
            if !closing { await observer?(chunk) }
            if chunk == nil { await end() }
            return chunk
        } catch {
            await end()
            throw error
        }
    }

    /// Ends the stream early: pulls once more from a cancelled task, so the producer sees the
    /// cancellation and runs its clean-up, and drops it.
    public func close() async {
        guard !done else { return }
        closing = true  // the pull below only lets the producer see the cancellation: nobody gets its chunk
        if iterator != nil {
            let drain = Task { _ = try? await self.next() }
            drain.cancel()
            await drain.value
        }
        await end()
    }

    /// The next chunk, failing with `SynthesisTimeout` once `deadline` passes.
    public func next(before deadline: ContinuousClock.Instant, limit: Duration) async throws -> AudioChunk? {
        try await withThrowingTaskGroup(of: AudioChunk?.self) { group in
            group.addTask { try await self.next() }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                throw SynthesisTimeout(limit: limit)
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    private func end() async {
        guard !done else { return }
        done = true
        start = nil
        iterator = nil
        if let onEnd {
            self.onEnd = nil
            await onEnd()
        }
    }
}

/// A request ran past its time limit.
public struct SynthesisTimeout: Error, CustomStringConvertible {
    public let limit: Duration

    public init(limit: Duration) {
        self.limit = limit
    }

    public var description: String { "synthesis did not finish within the \(limit.components.seconds) s time limit" }
}
