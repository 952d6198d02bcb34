import CONNXRuntime

/// ONNX Runtime's process environment: logging and, optionally, thread pools shared by all sessions.
///
/// ONNX Runtime allows one environment per process; ``shared`` is the one Warble uses unless a
/// program configures its own with ``configure(_:)`` before creating any session.
public final class Environment: @unchecked Sendable {
    // The OrtEnv is immutable after creation and documented as safe to share across threads.

    /// How much ONNX Runtime logs (to standard error).
    public enum LogLevel: Int32, Sendable {
        case verbose = 0, info, warning, error, fatal
    }

    /// Settings for the environment.
    public struct Configuration: Sendable, Equatable {
        public var logLevel: LogLevel
        /// A name shown in ONNX Runtime's log lines.
        public var logID: String
        /// When set, sessions created with `SessionOptions.useGlobalThreadPools` share these pools.
        public var globalThreadPools: GlobalThreadPools?

        public init(logLevel: LogLevel = .error, logID: String = "warble", globalThreadPools: GlobalThreadPools? = nil) {
            self.logLevel = logLevel
            self.logID = logID
            self.globalThreadPools = globalThreadPools
        }
    }

    /// Thread pools owned by the environment; 0 threads means ONNX Runtime's default (one per core).
    public struct GlobalThreadPools: Sendable, Equatable {
        public var intraOpThreads: Int
        public var interOpThreads: Int
        public var allowSpinning: Bool

        public init(intraOpThreads: Int = 0, interOpThreads: Int = 0, allowSpinning: Bool = true) {
            self.intraOpThreads = intraOpThreads
            self.interOpThreads = interOpThreads
            self.allowSpinning = allowSpinning
        }
    }

    public let configuration: Configuration
    public let library: ONNXRuntimeLibrary
    let handle: OpaquePointer

    var api: ORTAPI { library.api }

    private init(configuration: Configuration) throws {
        let library = try ONNXRuntimeLibrary.shared()
        let api = library.api
        var env: OpaquePointer?
        if let pools = configuration.globalThreadPools {
            var options: OpaquePointer?
            try api.check(api.f.CreateThreadingOptions(&options), "CreateThreadingOptions")
            guard let options else { throw ONNXRuntimeError(.runtime, "CreateThreadingOptions returned nothing") }
            defer { api.f.ReleaseThreadingOptions(options) }
            try api.check(api.f.SetGlobalIntraOpNumThreads(options, Int32(pools.intraOpThreads)), "intra-op threads")
            try api.check(api.f.SetGlobalInterOpNumThreads(options, Int32(pools.interOpThreads)), "inter-op threads")
            try api.check(api.f.SetGlobalSpinControl(options, pools.allowSpinning ? 1 : 0), "spin control")
            try configuration.logID.withCString { id in
                try api.check(api.f.CreateEnvWithGlobalThreadPools(
                    OrtLoggingLevel(UInt32(configuration.logLevel.rawValue)), id, options, &env), "CreateEnv")
            }
        } else {
            try configuration.logID.withCString { id in
                try api.check(api.f.CreateEnv(OrtLoggingLevel(UInt32(configuration.logLevel.rawValue)), id, &env),
                              "CreateEnv")
            }
        }
        guard let env else { throw ONNXRuntimeError(.runtime, "CreateEnv returned no environment") }
        self.configuration = configuration
        self.library = library
        self.handle = env
    }

    deinit { api.f.ReleaseEnv(handle) }

    private static let state = EnvironmentState()

    /// Sets up the process environment with `configuration`. Call it before the first session; once an
    /// environment exists, a different configuration is refused (ONNX Runtime has one per process).
    @discardableResult
    public static func configure(_ configuration: Configuration) throws -> Environment {
        try state.get(configuration)
    }

    /// The process environment (created with the default configuration if none was configured).
    public static func shared() throws -> Environment {
        try state.get(nil)
    }
}

/// Creates the single environment once, under a lock.
private final class EnvironmentState: @unchecked Sendable {
    private let lock = Lock()
    private var environment: Environment?

    func get(_ wanted: Environment.Configuration?) throws -> Environment {
        try lock.withLock {
            if let environment {
                if let wanted, wanted != environment.configuration {
                    throw ONNXRuntimeError(
                        .runtime,
                        "the ONNX Runtime environment already exists with another configuration; configure it before creating sessions")
                }
                return environment
            }
            let created = try Environment.make(wanted ?? .init())
            environment = created
            return created
        }
    }
}

extension Environment {
    fileprivate static func make(_ configuration: Configuration) throws -> Environment {
        try Environment(configuration: configuration)
    }
}
