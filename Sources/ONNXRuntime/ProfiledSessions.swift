import Foundation

/// The live sessions that write an ONNX Runtime profile, so that every profile is whole when the
/// process ends.
///
/// ONNX Runtime writes a session's profile when the session is released. A command returns while a
/// background task may still hold (and then release) a model's sessions: the process then exits under
/// the writing thread, and the file is cut short or left empty (`warble say` with WARBLE_ORT_PROFILE
/// wrote a 647 KB encoder profile that ended mid-string and an empty decoder one, in 1 run of 6).
/// So a profiled session is released under `lock`, and an exit handler takes the lock (waiting for a
/// release under way) and ends the profiling of the sessions still alive, which writes their files.
enum ProfiledSessions {
    private static let lock = Lock()
    nonisolated(unsafe) private static var live: [OpaquePointer: ORTAPI] = [:]

    /// Counts a profiled session in; the first one registers the exit handler.
    static func add(_ handle: OpaquePointer, api: ORTAPI) {
        registerExitHandler
        lock.withLock { live[handle] = api }
    }

    /// Releases a profiled session (which writes its profile), the exit handler waiting meanwhile.
    static func release(_ handle: OpaquePointer, api: ORTAPI) {
        lock.withLock {
            // After `endAll`, the profile is written: the release writes nothing more.
            live[handle] = nil
            api.f.ReleaseSession(handle)
        }
    }

    /// Ends the profiling of every live profiled session (writing its file); returns the files.
    @discardableResult
    static func endAll() -> [String] {
        lock.withLock {
            var files: [String] = []
            for (handle, api) in live {
                guard let allocator = try? api.defaultAllocator() else { continue }
                var name: UnsafeMutablePointer<CChar>?
                if (try? api.check(api.f.SessionEndProfiling(handle, allocator, &name), "end profiling")) != nil {
                    files.append(api.takeString(name, allocator: allocator))
                }
            }
            live.removeAll()
            return files
        }
    }

    /// Handlers run in reverse order of registration: this one before ONNX Runtime's own teardown,
    /// which was registered when its library was loaded (before any session).
    private static let registerExitHandler: Void = { atexit { ProfiledSessions.endAll() } }()
}
