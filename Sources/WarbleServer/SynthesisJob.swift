import WarbleSpeech

/// One request's synthesis stream, pulled a chunk at a time by whichever task serves the request
/// (the handler takes the first chunk, the response body the rest). Cancelling the pulling task
/// stops the model run in progress.
actor SynthesisJob {
    private var iterator: AsyncThrowingStream<AudioChunk, any Error>.AsyncIterator?

    init(_ stream: AsyncThrowingStream<AudioChunk, any Error>) {
        iterator = stream.makeAsyncIterator()
    }

    /// The next chunk, or nil at the end.
    func next() async throws -> AudioChunk? {
        var current = iterator
        defer { iterator = current }
        return try await current?.next(isolation: self)
    }

    /// Ends the stream early: pulls once more from a cancelled task, so the producer sees the
    /// cancellation and runs its clean-up (the engine counts the request as finished only then),
    /// and drops it.
    func close() async {
        guard iterator != nil else { return }
        let drain = Task { _ = try? await self.next() }
        drain.cancel()
        await drain.value
        iterator = nil
    }

    /// The next chunk, failing once `deadline` passes.
    func next(before deadline: ContinuousClock.Instant, limit: Duration) async throws -> AudioChunk? {
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
}

/// A request ran past the server's time limit.
struct SynthesisTimeout: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "synthesis did not finish within the \(limit.components.seconds) s time limit" }
}
