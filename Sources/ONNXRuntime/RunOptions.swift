import CONNXRuntime

/// Per-run settings, and the way to stop a run that is under way from another thread or task.
public final class RunOptions: @unchecked Sendable {
    // ONNX Runtime's terminate flag exists to be set from another thread while Run reads it.
    let handle: OpaquePointer
    let api: ORTAPI

    public init(logLevel: Environment.LogLevel? = nil) throws {
        let api = try ONNXRuntimeLibrary.shared().api
        var raw: OpaquePointer?
        try api.check(api.f.CreateRunOptions(&raw), "CreateRunOptions")
        guard let raw else { throw ONNXRuntimeError(.runtime, "CreateRunOptions returned nothing") }
        self.api = api
        self.handle = raw
        if let logLevel {
            try api.check(api.f.RunOptionsSetRunLogSeverityLevel(raw, logLevel.rawValue), "run log level")
        }
    }

    deinit { api.f.ReleaseRunOptions(handle) }

    /// Makes runs using these options stop as soon as possible with a `.cancelled` error.
    public func terminate() throws {
        try api.check(api.f.RunOptionsSetTerminate(handle), "RunOptionsSetTerminate")
    }

    /// Lets runs using these options proceed again.
    public func reset() throws {
        try api.check(api.f.RunOptionsUnsetTerminate(handle), "RunOptionsUnsetTerminate")
    }
}
