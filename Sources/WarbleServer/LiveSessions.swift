import Foundation

/// The open live caption sessions: at most `limit` (reserved while one starts, so that two starting at
/// once cannot pass it), each ended when idle for `idle` (no audio and no reader coming).
actor LiveSessions {
    let limit: Int
    let idle: Duration
    private var sessions: [String: LiveSession] = [:]
    private var starting = 0

    init(limit: Int, idle: Duration) {
        self.limit = limit
        self.idle = idle
    }

    var count: Int { sessions.count }

    /// Holds a place for a session about to start (429 when every place is taken).
    func reserve() throws {
        guard sessions.count + starting < limit else {
            throw APIError.busy("\(limit) live session\(limit == 1 ? " is" : "s are") open, the most this server allows "
                + "(--max-live-sessions): end one first", retryAfterSeconds: 5)
        }
        starting += 1
    }

    /// Gives back a place reserved for a session that did not start.
    func release() { starting = max(0, starting - 1) }

    /// Adds the session started on a reserved place, and watches it for idleness.
    func add(_ session: LiveSession) {
        starting = max(0, starting - 1)
        sessions[session.id] = session
        let idle = self.idle
        Task { [weak self] in
            while true {
                do { try await Task.sleep(for: idle) } catch { return }
                guard let self, await self.sessions[session.id] != nil else { return }
                if ContinuousClock.now - (await session.lastActivity) >= idle {
                    await self.end(session.id, reason: APIError(.requestTimeout, "live session \(session.id) received no audio for "
                        + "\(idle) and was ended", code: "session_expired"))
                    return
                }
            }
        }
    }

    /// The session `id` (404 when there is none).
    func session(_ id: String) throws -> LiveSession {
        guard let session = sessions[id] else {
            throw APIError(.notFound, "no live session '\(id)' (it ended, expired, or never was)", param: "id", code: "session_not_found")
        }
        return session
    }

    /// Ends `id`'s input: the speech in progress is still recognised, and the session stays until its reader
    /// has read the last event (or it expires).
    func finish(_ id: String) async throws -> LiveSession {
        let session = try session(id)
        await session.endInput()
        return session
    }

    /// Forgets `id` and stops its work at once.
    func end(_ id: String, reason: APIError? = nil) async {
        guard let session = sessions.removeValue(forKey: id) else { return }
        await session.cancel(reason: reason)
    }
}
