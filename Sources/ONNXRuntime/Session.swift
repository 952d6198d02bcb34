import CONNXRuntime
import Foundation

/// A loaded model, ready to run. Immutable and `Sendable`: one session serves concurrent runs from
/// any number of tasks (ONNX Runtime's Run is thread-safe); per-run state lives in the tensors.
public final class Session: @unchecked Sendable {
    // The OrtSession is never mutated after creation; ONNX Runtime documents concurrent Run as safe.
    public let inputs: [TensorInfo]
    public let outputs: [TensorInfo]
    public let metadata: ModelMetadata
    /// Where the model came from (a path, or "<N bytes in memory>").
    public let source: String
    public let environment: Environment

    let handle: OpaquePointer
    private let names: CNames
    /// Writes an ONNX Runtime profile (see `ProfiledSessions`).
    private let profiled: Bool
    /// Memory the session's initializers live in (a mapped .ort file), released after the session.
    private let backing: MappedFile?

    var api: ORTAPI { environment.api }

    /// Loads a model file.
    public convenience init(path: String, options: SessionOptions = .init(), environment: Environment? = nil) throws {
        let environment = try environment ?? Environment.shared()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ONNXRuntimeError(.modelNotFound, "model file not found: \(path)")
        }
        guard !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: path) else {
            throw ONNXRuntimeError(.modelNotFound, "model path is not a readable file: \(path)")
        }
        if path.hasSuffix(".ort") {
            try self.init(mappingORTFile: path, options: options, environment: environment)
            return
        }
        let api = environment.api
        let handle: OpaquePointer = try options.withORTOptions(environment.library) { ortOptions in
            var session: OpaquePointer?
            try path.withCString { cPath in
                try Session.checkLoad(api, api.f.CreateSession(environment.handle, cPath, ortOptions, &session), source: path)
            }
            guard let session else { throw ONNXRuntimeError(.runtime, "CreateSession returned nothing for \(path)") }
            return session
        }
        try self.init(handle: handle, environment: environment, source: path, profiled: options.resolvedProfilingPrefix != nil)
    }

    /// Loads a model in ONNX Runtime's format (.ort) by mapping the file: the session's weights are read
    /// from the mapping in place (`session.use_ort_model_bytes_for_initializers`) instead of being copied
    /// out of a second buffer, so a load costs neither the copy's time nor its memory. The mapping lives as
    /// long as the session.
    public convenience init(mappingORTFile path: String, options: SessionOptions = .init(),
                            environment: Environment? = nil) throws {
        let environment = try environment ?? Environment.shared()
        let file = try MappedFile(path: path)
        var options = options
        // Bytes say nothing of their format (a path's extension does): ask for ORT's, so that a damaged
        // file is reported as a damaged .ort rather than as an ONNX file that fails to parse.
        options.configEntries["session.load_model_format"] = "ORT"
        options.configEntries["session.use_ort_model_bytes_directly"] = "1"
        options.configEntries["session.use_ort_model_bytes_for_initializers"] = "1"
        let api = environment.api
        let handle: OpaquePointer = try options.withORTOptions(environment.library) { ortOptions in
            var session: OpaquePointer?
            try Session.checkLoad(api, api.f.CreateSessionFromArray(
                environment.handle, file.bytes, file.count, ortOptions, &session), source: path)
            guard let session else { throw ONNXRuntimeError(.runtime, "CreateSessionFromArray returned nothing for \(path)") }
            return session
        }
        try self.init(handle: handle, environment: environment, source: path,
                      profiled: options.resolvedProfilingPrefix != nil, backing: file)
    }

    /// Loads a model file.
    public convenience init(contentsOf url: URL, options: SessionOptions = .init(), environment: Environment? = nil) throws {
        try self.init(path: url.path, options: options, environment: environment)
    }

    /// Loads a model from bytes in memory (ONNX Runtime copies what it needs; the bytes may go after).
    public convenience init(bytes: [UInt8], options: SessionOptions = .init(), environment: Environment? = nil) throws {
        let environment = try environment ?? Environment.shared()
        let api = environment.api
        let source = "<\(bytes.count) bytes in memory>"
        guard !bytes.isEmpty else { throw ONNXRuntimeError(.invalidModel, "the model bytes are empty") }
        let handle: OpaquePointer = try options.withORTOptions(environment.library) { ortOptions in
            var session: OpaquePointer?
            try bytes.withUnsafeBytes { raw in
                try Session.checkLoad(api, api.f.CreateSessionFromArray(
                    environment.handle, raw.baseAddress!, raw.count, ortOptions, &session), source: source)
            }
            guard let session else { throw ONNXRuntimeError(.runtime, "CreateSessionFromArray returned nothing") }
            return session
        }
        try self.init(handle: handle, environment: environment, source: source,
                      profiled: options.resolvedProfilingPrefix != nil)
    }

    private init(handle: OpaquePointer, environment: Environment, source: String, profiled: Bool,
                 backing: MappedFile? = nil) throws {
        let api = environment.api
        do {
            let allocator = try api.defaultAllocator()
            inputs = try Session.describe(handle, api: api, allocator: allocator, input: true)
            outputs = try Session.describe(handle, api: api, allocator: allocator, input: false)
            metadata = try ModelMetadata.read(session: handle, api: api)
        } catch {
            api.f.ReleaseSession(handle)
            throw error
        }
        self.handle = handle
        self.environment = environment
        self.source = source
        self.names = CNames(inputs.map(\.name) + outputs.map(\.name))
        self.profiled = profiled
        self.backing = backing
        if profiled { ProfiledSessions.add(handle, api: api) }
    }

    deinit {
        if profiled { ProfiledSessions.release(handle, api: api) } else { api.f.ReleaseSession(handle) }
    }

    /// The declared input called `name`, if any.
    public func input(named name: String) -> TensorInfo? { inputs.first { $0.name == name } }

    /// The declared output called `name`, if any.
    public func output(named name: String) -> TensorInfo? { outputs.first { $0.name == name } }

    // MARK: Running

    /// Runs the model. Every declared input must be given, with the declared element type and a shape
    /// that fits the declared one; `outputs` names the outputs wanted (all of them when nil).
    public func run(_ feeds: [String: Tensor], outputs wanted: [String]? = nil, options: RunOptions? = nil) throws
        -> RunOutputs
    {
        let inputOrder = try validate(feeds)
        let outputIndices = try outputIndices(for: wanted)

        // Each array ends with a spare nil so that its base address exists even when nothing is in it.
        let inputNamePointers: [UnsafePointer<CChar>?] = inputOrder.map { names.pointer(at: $0) } + [nil]
        let inputValues: [OpaquePointer?] = inputOrder.map { feeds[inputs[$0].name]?.value } + [nil]
        let outputNamePointers: [UnsafePointer<CChar>?] = outputIndices.map { names.pointer(at: inputs.count + $0) } + [nil]
        var results = [OpaquePointer?](repeating: nil, count: outputIndices.count + 1)

        let timing = RunTimer.begin()
        let status = inputNamePointers.withUnsafeBufferPointer { inNames in
            inputValues.withUnsafeBufferPointer { inValues in
                outputNamePointers.withUnsafeBufferPointer { outNames in
                    results.withUnsafeMutableBufferPointer { outValues in
                        api.f.Run(handle, options?.handle, inNames.baseAddress!, inValues.baseAddress!, inputOrder.count,
                                  outNames.baseAddress!, outputIndices.count, outValues.baseAddress!)
                    }
                }
            }
        }
        RunTimer.end(timing)
        do {
            try api.check(status, "running \(source)")
        } catch {
            results.forEach { $0.map { api.f.ReleaseValue($0) } }
            throw error
        }
        results.removeLast()
        var tensors: [Tensor] = []
        tensors.reserveCapacity(results.count)
        for (position, value) in results.enumerated() {
            do {
                guard let value else {
                    throw ONNXRuntimeError(
                        .runtime, "ONNX Runtime produced no value for output \(self.outputs[outputIndices[position]].name)")
                }
                tensors.append(try Tensor(adopting: value, api: api))
            } catch {
                results[(position + 1)...].forEach { $0.map { api.f.ReleaseValue($0) } }
                throw error
            }
        }
        return RunOutputs(names: outputIndices.map { self.outputs[$0].name }, tensors: tensors)
    }

    /// Checks the feeds against the declared inputs; returns the input indices in declaration order.
    private func validate(_ feeds: [String: Tensor]) throws -> [Int] {
        for name in feeds.keys where input(named: name) == nil {
            throw ONNXRuntimeError(
                .unknownName,
                "\(source) has no input named '\(name)'; its inputs are: " + inputs.map(\.description).joined(separator: ", "))
        }
        var order: [Int] = []
        order.reserveCapacity(inputs.count)
        var missing: [String] = []
        for (index, info) in inputs.enumerated() {
            guard let tensor = feeds[info.name] else {
                missing.append(info.description)
                continue
            }
            if tensor.elementType != info.elementType {
                throw ONNXRuntimeError(
                    .typeMismatch,
                    "input '\(info.name)' of \(source) expects \(info.typeDescription), got \(tensor.description)")
            }
            if !info.accepts(tensor) {
                throw ONNXRuntimeError(
                    .shapeMismatch,
                    "input '\(info.name)' of \(source) expects shape \(info.typeDescription), got \(tensor.description)")
            }
            order.append(index)
        }
        if !missing.isEmpty {
            throw ONNXRuntimeError(.missingInput, "\(source) needs inputs that were not given: " + missing.joined(separator: ", "))
        }
        return order
    }

    private func outputIndices(for wanted: [String]?) throws -> [Int] {
        guard let wanted else { return Array(outputs.indices) }
        return try wanted.map { name in
            guard let index = outputs.firstIndex(where: { $0.name == name }) else {
                throw ONNXRuntimeError(
                    .unknownName,
                    "\(source) has no output named '\(name)'; its outputs are: " + outputs.map(\.description).joined(separator: ", "))
            }
            return index
        }
    }

    // MARK: Loading helpers

    private static func checkLoad(_ api: ORTAPI, _ status: OpaquePointer?, source: String) throws {
        do {
            try api.check(status)
        } catch let error as ONNXRuntimeError {
            switch error.ortCode {
            case 3:
                throw ONNXRuntimeError(.modelNotFound, "model file not found: \(source) (\(error.message))", ortCode: error.ortCode)
            case 7, 4:
                throw ONNXRuntimeError(
                    .invalidModel, "\(source) is not a valid ONNX model (not ONNX, truncated or corrupt): \(error.message)",
                    ortCode: error.ortCode)
            case 10:
                throw ONNXRuntimeError(.invalidModel, "\(source) has an invalid graph: \(error.message)", ortCode: error.ortCode)
            case _ where source.hasSuffix(".ort") && error.message.contains("verification failed"):
                throw ONNXRuntimeError(
                    .invalidModel, "\(source) is not a valid ONNX Runtime format (.ort) model (truncated or corrupt): \(error.message)",
                    ortCode: error.ortCode)
            default:
                throw ONNXRuntimeError(error.kind == .runtime ? .invalidModel : error.kind,
                                       "could not load \(source): \(error.message)", ortCode: error.ortCode)
            }
        }
    }

    private static func describe(_ session: OpaquePointer, api: ORTAPI, allocator: OpaquePointer, input: Bool) throws
        -> [TensorInfo]
    {
        var count = 0
        try api.check(input ? api.f.SessionGetInputCount(session, &count) : api.f.SessionGetOutputCount(session, &count),
                      "counting model \(input ? "inputs" : "outputs")")
        return try (0..<count).map { index in
            var rawName: UnsafeMutablePointer<CChar>?
            try api.check(input ? api.f.SessionGetInputName(session, index, allocator, &rawName)
                                : api.f.SessionGetOutputName(session, index, allocator, &rawName), "reading a name")
            let name = api.takeString(rawName, allocator: allocator)
            var typeInfo: OpaquePointer?
            try api.check(input ? api.f.SessionGetInputTypeInfo(session, index, &typeInfo)
                                : api.f.SessionGetOutputTypeInfo(session, index, &typeInfo), "reading the type of \(name)")
            guard let typeInfo else { throw ONNXRuntimeError(.runtime, "no type information for \(name)") }
            defer { api.f.ReleaseTypeInfo(typeInfo) }
            var onnxType = ONNX_TYPE_UNKNOWN
            try api.check(api.f.GetOnnxTypeFromTypeInfo(typeInfo, &onnxType), "reading the kind of \(name)")
            let kind = TensorInfo.ValueKind(rawValue: Int32(bitPattern: onnxType.rawValue)) ?? .unknown
            guard kind == .tensor else {
                return TensorInfo(name: name, kind: kind, elementType: .undefined, shape: [])
            }
            var tensorInfo: OpaquePointer?
            try api.check(api.f.CastTypeInfoToTensorInfo(typeInfo, &tensorInfo), "reading the tensor type of \(name)")
            guard let tensorInfo else { throw ONNXRuntimeError(.runtime, "no tensor information for \(name)") }
            // Owned by typeInfo: not released separately.
            return try TensorInfo.read(tensorInfo, name: name, api: api)
        }
    }
}

/// NUL-terminated copies of a session's input and output names, made once and kept for every run.
private final class CNames: @unchecked Sendable {
    // Written once in init; only read afterwards.
    private let storage: [UnsafeMutablePointer<CChar>]

    init(_ names: [String]) { storage = names.map { strdup($0)! } }

    deinit { storage.forEach { free($0) } }

    func pointer(at index: Int) -> UnsafePointer<CChar> { UnsafePointer(storage[index]) }
}
