import CONNXRuntime
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ONNX Runtime shared library, opened at run time with `dlopen` (the build never links it).
///
/// `ONNXRuntimeLibrary.shared()` opens it once per process from the first path of
/// ``LibraryLocator/candidates(environment:)`` that loads.
public final class ONNXRuntimeLibrary: Sendable {
    /// The file that was opened.
    public let path: String
    /// ONNX Runtime's version string, e.g. "1.31.1".
    public let version: String
    /// The API level Warble asked for (the newest function it calls needs this level).
    public let apiLevel: UInt32
    /// The highest API level the library offers (probed once, at load).
    public let maxAPILevel: UInt32

    let api: ORTAPI

    private init(path: String, version: String, apiLevel: UInt32, maxAPILevel: UInt32, api: ORTAPI) {
        self.path = path
        self.version = version
        self.apiLevel = apiLevel
        self.maxAPILevel = maxAPILevel
        self.api = api
    }

    /// ONNX Runtime's build description (git commit, compiler flags).
    public var buildInfo: String { api.f.GetBuildInfoString().map { String(cString: $0) } ?? "" }

    /// Execution providers compiled into the loaded library, e.g. ["CPUExecutionProvider"].
    public var availableProviders: [String] {
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var count: Int32 = 0
        guard (try? api.check(api.f.GetAvailableProviders(&list, &count))) != nil, let list else { return [] }
        defer { _ = api.f.ReleaseAvailableProviders(list, count) }
        return (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
    }

    private static let loaded: Result<ONNXRuntimeLibrary, ONNXRuntimeError> = Result { try load() }
        .mapError { $0 as? ONNXRuntimeError ?? ONNXRuntimeError(.libraryNotFound, "\($0)") }

    /// The process-wide library, opened on first use.
    public static func shared() throws(ONNXRuntimeError) -> ONNXRuntimeLibrary {
        try loaded.get()
    }

    /// Opens the library from the first candidate path that loads.
    static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ONNXRuntimeLibrary {
        disableTelemetry()
        let candidates = LibraryLocator.candidates(environment: environment)
        var failures: [String] = []
        for path in candidates {
            guard FileManager.default.fileExists(atPath: path) else {
                failures.append("\(path): no such file")
                continue
            }
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                failures.append("\(path): \(dlerror().map { String(cString: $0) } ?? "dlopen failed")")
                continue
            }
            return try open(handle: handle, path: path)
        }
        let explicit = environment[LibraryLocator.libraryVariable].map { !$0.isEmpty } ?? false
        var message = "ONNX Runtime library not found. Looked for:\n"
        message += failures.map { "  - \($0)" }.joined(separator: "\n")
        message += explicit
            ? "\n\(LibraryLocator.libraryVariable) names a file that could not be loaded; fix or unset it."
            : "\nInstall it with `scripts/setup.sh` (it puts the pinned library into $WARBLE_HOME/lib), "
                + "or set \(LibraryLocator.libraryVariable) to a libonnxruntime shared library."
        throw ONNXRuntimeError(.libraryNotFound, message)
    }

    /// The official builds since 1.29 carry telemetry on Linux: a device id and an event database under
    /// `~/.cache/Microsoft/DeveloperTools/.onnxruntime`, uploaded when there is a network. An on-device engine
    /// writes nothing outside `$WARBLE_HOME` and the paths its user names, so `ORT_DISABLE_TELEMETRY=1` is set
    /// before the library is opened (the runtime reads it once, when its first environment is created: no
    /// uploader, events, device id or cache are made then).
    static func disableTelemetry() {
        setenv("ORT_DISABLE_TELEMETRY", "1", 1)
    }

    private static func open(handle: UnsafeMutableRawPointer, path: String) throws -> ONNXRuntimeLibrary {
        guard let symbol = dlsym(handle, "OrtGetApiBase") else {
            throw ONNXRuntimeError(.libraryIncompatible, "\(path) has no OrtGetApiBase symbol: it is not ONNX Runtime")
        }
        let getBase = unsafeBitCast(symbol, to: OrtGetApiBaseFunction.self)
        guard let base = getBase() else {
            throw ONNXRuntimeError(.libraryIncompatible, "\(path): OrtGetApiBase returned nothing")
        }
        let version = base.pointee.GetVersionString().map { String(cString: $0) } ?? "unknown"
        let level = UInt32(WARBLE_ORT_API_LEVEL)
        guard let table = base.pointee.GetApi(level) else {
            throw ONNXRuntimeError(
                .libraryIncompatible,
                "ONNX Runtime \(version) at \(path) does not offer API level \(level); Warble needs 1.\(level) or newer "
                    + "(run scripts/setup.sh to install the pinned version)")
        }
        let max = maxLevel(base: base, from: level)
        return ONNXRuntimeLibrary(path: path, version: version, apiLevel: level, maxAPILevel: max,
                                  api: ORTAPI(table: table))
    }

    /// The highest level GetApi answers, found by asking upwards (ORT logs nothing for levels it has).
    private static func maxLevel(base: UnsafePointer<OrtApiBase>, from level: UInt32) -> UInt32 {
        // The version string's minor number is the API level in every release since 1.0.
        let version = base.pointee.GetVersionString().map { String(cString: $0) } ?? ""
        let parts = version.split(separator: ".")
        if parts.count >= 2, let value = UInt32(parts[1]), value >= level, base.pointee.GetApi(value) != nil {
            return value
        }
        return level
    }
}
