import CONNXRuntime
import CWarbleOperators
import Foundation

/// How a session is built and run. A value type: it becomes ONNX Runtime options only while a
/// session is created.
public struct SessionOptions: Sendable, Equatable {
    /// ONNX Runtime's graph optimisation levels.
    public enum GraphOptimizationLevel: Int32, Sendable {
        case disabled = 0
        case basic = 1
        case extended = 2
        case layout = 3
        case all = 99
    }

    /// Threads inside one operator; 0 lets ONNX Runtime choose (one per physical core).
    public var intraOpThreads: Int
    /// Threads across independent operators (used in parallel execution mode); 0 lets ONNX Runtime choose.
    public var interOpThreads: Int
    public var graphOptimizationLevel: GraphOptimizationLevel
    /// Run independent branches of the graph in parallel.
    public var parallelExecution: Bool
    /// ONNX Runtime's CPU memory arena: faster repeated runs, more resident memory.
    public var memoryArena: Bool
    /// ONNX Runtime's memory patterns: an allocation plan remembered per input shape. Fast for fixed
    /// shapes; for models whose shapes change every run (speech of any length) it keeps adding plans.
    public var memoryPattern: Bool
    /// Share the environment's global thread pools instead of creating per-session ones.
    public var useGlobalThreadPools: Bool
    /// Execution providers by name, in order of preference, with their options (for example
    /// `("CUDA", [:])`). The CPU provider is always present and needs no entry. A provider the loaded
    /// library lacks is an error naming the ones it has.
    public var executionProviders: [ExecutionProvider]
    /// Free-form session configuration entries (`session.*` keys of ONNX Runtime).
    public var configEntries: [String: String]
    /// Whether the session's intra-op threads stop spinning when a run ends
    /// (`session.force_spinning_stop`). ONNX Runtime's threads otherwise keep spinning for more work
    /// after a run, on a core the next session of the same model then needs: a Piper voice's encoder
    /// and decoder with two threads each ran slower than with one (0.158 s against 0.138 s a sentence;
    /// 0.123 s with this on). A thread still spins between the operators of one run.
    public var stopSpinningAfterRun: Bool
    /// Whether int8 matrix products use ONNX Runtime's exact U8U8 kernels rather than U8S8
    /// (`session.x64quantprecision`). On an x86-64 CPU without VNNI (AVX2, AVX-512 without VNNI) the U8S8
    /// kernels saturate: on an AMD EPYC with AVX2 Whisper tiny.en int8 missed 15.9 % of the words its f32
    /// model heard (bound 10 %), and Opus-MT's int8 model lost sentences. ONNX Runtime ignores it elsewhere.
    public var preciseQuantizedMatMul: Bool
    /// ONNX Runtime's log level for this session (nil: the environment's).
    public var logLevel: Environment.LogLevel?
    /// Registers Warble's own operators (domain `ai.warble`: Snake, see WarbleCustomOps.h), which
    /// models rewritten by tools/models/fuse_snake.py use.
    public var warbleOperators: Bool
    /// Writes ONNX Runtime's per-operator profile (Chrome trace JSON, `PREFIX_<pid>-<n>_<date>.json`,
    /// one file a session) when the session is released. Nil: the `WARBLE_ORT_PROFILE` environment variable's prefix, if set.
    public var profilingPrefix: String?
    /// Where ONNX Runtime writes the model after its graph optimisations (`OptimisedModelCache` sets it
    /// for the one session that saves a model; nil: nowhere).
    var optimisedModelOutput: String?

    public init(
        intraOpThreads: Int = 0,
        interOpThreads: Int = 0,
        graphOptimizationLevel: GraphOptimizationLevel = .all,
        parallelExecution: Bool = false,
        memoryArena: Bool = true,
        memoryPattern: Bool = true,
        useGlobalThreadPools: Bool = false,
        executionProviders: [ExecutionProvider] = [],
        configEntries: [String: String] = [:],
        stopSpinningAfterRun: Bool = true,
        preciseQuantizedMatMul: Bool = true,
        logLevel: Environment.LogLevel? = nil,
        warbleOperators: Bool = false,
        profilingPrefix: String? = nil
    ) {
        self.intraOpThreads = intraOpThreads
        self.interOpThreads = interOpThreads
        self.graphOptimizationLevel = graphOptimizationLevel
        self.parallelExecution = parallelExecution
        self.memoryArena = memoryArena
        self.memoryPattern = memoryPattern
        self.useGlobalThreadPools = useGlobalThreadPools
        self.executionProviders = executionProviders
        self.configEntries = configEntries
        self.stopSpinningAfterRun = stopSpinningAfterRun
        self.preciseQuantizedMatMul = preciseQuantizedMatMul
        self.logLevel = logLevel
        self.warbleOperators = warbleOperators
        self.profilingPrefix = profilingPrefix
    }

    static let forceSpinningStop = "session.force_spinning_stop"
    static let x64QuantPrecision = "session.x64quantprecision"

    /// The profile's prefix in effect: `profilingPrefix`, else `WARBLE_ORT_PROFILE`; nil when neither is set.
    public var resolvedProfilingPrefix: String? {
        guard let prefix = profilingPrefix ?? ProcessInfo.processInfo.environment["WARBLE_ORT_PROFILE"], !prefix.isEmpty
        else { return nil }
        return prefix
    }

    /// The `session.*` entries handed to ONNX Runtime: `configEntries`, the spinning stop and the exact int8
    /// products unless `configEntries` sets those keys itself.
    var resolvedConfigEntries: [String: String] {
        var entries = configEntries
        if stopSpinningAfterRun, entries[Self.forceSpinningStop] == nil { entries[Self.forceSpinningStop] = "1" }
        if preciseQuantizedMatMul, entries[Self.x64QuantPrecision] == nil { entries[Self.x64QuantPrecision] = "1" }
        return entries
    }

    /// Builds ONNX Runtime's options, hands them to `body`, and releases them.
    func withORTOptions<T>(_ library: ONNXRuntimeLibrary, _ body: (OpaquePointer) throws -> T) throws -> T {
        let api = library.api
        var raw: OpaquePointer?
        try api.check(api.f.CreateSessionOptions(&raw), "CreateSessionOptions")
        guard let options = raw else { throw ONNXRuntimeError(.runtime, "CreateSessionOptions returned nothing") }
        defer { api.f.ReleaseSessionOptions(options) }

        guard intraOpThreads >= 0, interOpThreads >= 0 else {
            throw ONNXRuntimeError(.runtime, "thread counts must be 0 (automatic) or more, got intra \(intraOpThreads), inter \(interOpThreads)")
        }
        try api.check(api.f.SetIntraOpNumThreads(options, Int32(intraOpThreads)), "intra-op threads")
        try api.check(api.f.SetInterOpNumThreads(options, Int32(interOpThreads)), "inter-op threads")
        try api.check(api.f.SetSessionGraphOptimizationLevel(
            options, CONNXRuntime.GraphOptimizationLevel(UInt32(graphOptimizationLevel.rawValue))), "optimisation level")
        try api.check(api.f.SetSessionExecutionMode(options, parallelExecution ? ORT_PARALLEL : ORT_SEQUENTIAL),
                      "execution mode")
        try api.check(memoryArena ? api.f.EnableCpuMemArena(options) : api.f.DisableCpuMemArena(options), "memory arena")
        try api.check(memoryPattern ? api.f.EnableMemPattern(options) : api.f.DisableMemPattern(options), "memory pattern")
        if useGlobalThreadPools {
            try api.check(api.f.DisablePerSessionThreads(options), "global thread pools")
        }
        if let logLevel {
            try api.check(api.f.SetSessionLogSeverityLevel(options, logLevel.rawValue), "session log level")
        }
        for (key, value) in resolvedConfigEntries.sorted(by: { $0.key < $1.key }) {
            try key.withCString { k in
                try value.withCString { v in try api.check(api.f.AddSessionConfigEntry(options, k, v), "config entry \(key)") }
            }
        }
        if warbleOperators {
            try api.check(warble_add_custom_ops(api.table, options), "Warble's operators")
        }
        if let output = optimisedModelOutput {
            try output.withCString { try api.check(api.f.SetOptimizedModelFilePath(options, $0), "optimised model path") }
        }
        if let prefix = resolvedProfilingPrefix {
            // ONNX Runtime names the file by the prefix and the second it was made: two sessions of one
            // second (a model's encoder and decoder) would write one file at once, and garble it.
            try ProfileNumbering.unique(prefix).withCString { try api.check(api.f.EnableProfiling(options, $0), "profiling") }
        }
        for provider in executionProviders {
            try provider.append(to: options, library: library)
        }
        return try body(options)
    }
}

/// An execution provider to try, by ONNX Runtime's short name ("CUDA", "CoreML", "XNNPACK", ...).
public struct ExecutionProvider: Sendable, Equatable {
    public var name: String
    public var options: [String: String]

    public init(_ name: String, options: [String: String] = [:]) {
        self.name = name
        self.options = options
    }

    func append(to sessionOptions: OpaquePointer, library: ONNXRuntimeLibrary) throws {
        if name == "CPU" || name == "CPUExecutionProvider" { return }
        let available = library.availableProviders
        let fullName = name.hasSuffix("ExecutionProvider") ? name : name + "ExecutionProvider"
        guard available.contains(fullName) else {
            throw ONNXRuntimeError(
                .runtime,
                "execution provider \(name) is not in this ONNX Runtime build (\(library.version) at \(library.path)); it has: "
                    + available.joined(separator: ", "))
        }
        let api = library.api
        let pairs = options.sorted { $0.key < $1.key }
        let keys = pairs.map { strdup($0.key) }
        let values = pairs.map { strdup($0.value) }
        defer { (keys + values).forEach { free($0) } }
        let keyPointers = keys.map { UnsafePointer($0) }
        let valuePointers = values.map { UnsafePointer($0) }
        try name.withCString { n in
            try keyPointers.withUnsafeBufferPointer { k in
                try valuePointers.withUnsafeBufferPointer { v in
                    try api.check(api.f.SessionOptionsAppendExecutionProvider(
                        sessionOptions, n, k.baseAddress, v.baseAddress, pairs.count), "execution provider \(name)")
                }
            }
        }
    }
}

/// Profile file prefixes unique to each session of the process.
enum ProfileNumbering {
    private static let lock = Lock()
    nonisolated(unsafe) private static var next = 0

    static func unique(_ prefix: String) -> String {
        let number = lock.withLock { () -> Int in
            next += 1
            return next
        }
        return "\(prefix)_\(ProcessInfo.processInfo.processIdentifier)-\(number)"
    }
}
