import CONNXRuntime

/// An ONNX Runtime tensor value: element type, shape and data.
///
/// A tensor is immutable once made, so it can be shared between tasks and fed to several runs;
/// an output can go straight back in as the next run's input (a KV cache) without a copy.
public final class Tensor: @unchecked Sendable, CustomStringConvertible {
    // Immutable after init: the OrtValue is only read, and the memory it points at is never written again.
    public let elementType: ElementType
    public let shape: [Int]
    let value: OpaquePointer
    let api: ORTAPI
    /// Keeps memory that ONNX Runtime borrows alive as long as the value (nil for ORT-owned data).
    private let owner: AnyObject?

    /// Number of elements (the product of the shape; 1 for a scalar).
    public var count: Int { shape.reduce(1, *) }

    public var description: String {
        "\(elementType)[\(shape.map(String.init).joined(separator: ", "))]"
    }

    // MARK: Making tensors

    /// A tensor of `shape` whose elements are written by `initialize` into memory ONNX Runtime then
    /// reads in place (no further copy).
    public init<T: TensorElement>(
        shape: [Int], of type: T.Type = T.self,
        initializingWith initialize: (UnsafeMutableBufferPointer<T>) throws -> Void
    ) throws {
        let count = try Self.checkedCount(shape)
        let storage = TensorStorage(byteCount: count * MemoryLayout<T>.stride)
        let typed = storage.pointer.bindMemory(to: T.self, capacity: Swift.max(count, 1))
        try initialize(UnsafeMutableBufferPointer(start: typed, count: count))
        let library = try ONNXRuntimeLibrary.shared()
        self.api = library.api
        self.value = try Self.makeValue(api: library.api, data: storage.pointer, byteCount: storage.byteCount,
                                        shape: shape, elementType: T.elementType)
        self.elementType = T.elementType
        self.shape = shape
        self.owner = storage
    }

    /// A tensor holding `values` (copied once into memory the tensor owns) with `shape`.
    public convenience init<T: TensorElement>(_ values: [T], shape: [Int]) throws {
        let count = try Self.checkedCount(shape)
        guard count == values.count else {
            throw ONNXRuntimeError(.invalidTensor,
                                   "shape \(shape) holds \(count) elements but \(values.count) values were given")
        }
        try self.init(shape: shape, of: T.self) { buffer in
            _ = buffer.initialize(from: values)
        }
    }

    /// A one-dimensional tensor of `values`.
    public convenience init<T: TensorElement>(_ values: [T]) throws {
        try self.init(values, shape: [values.count])
    }

    /// A rank-0 tensor holding one value.
    public convenience init<T: TensorElement>(scalar value: T) throws {
        try self.init([value], shape: [])
    }

    /// A tensor of `shape` with every element `value`.
    public convenience init<T: TensorElement>(repeating value: T, shape: [Int]) throws {
        try self.init(shape: shape, of: T.self) { $0.initialize(repeating: value) }
    }

    /// A tensor over memory the caller owns: no copy at all. `owner` is kept alive as long as the
    /// tensor; the caller must not free or change the memory while any run may read it.
    public init(
        borrowing buffer: UnsafeMutableRawBufferPointer, elementType: ElementType, shape: [Int], owner: AnyObject?
    ) throws {
        let count = try Self.checkedCount(shape)
        guard let size = elementType.byteSize else {
            throw ONNXRuntimeError(.invalidTensor, "tensors of \(elementType) cannot be made from raw memory")
        }
        guard buffer.count == count * size, let base = buffer.baseAddress else {
            throw ONNXRuntimeError(.invalidTensor,
                                   "\(elementType)\(shape) needs \(count * size) bytes, the buffer has \(buffer.count)")
        }
        let library = try ONNXRuntimeLibrary.shared()
        self.api = library.api
        self.value = try Self.makeValue(api: library.api, data: base, byteCount: buffer.count, shape: shape,
                                        elementType: elementType)
        self.elementType = elementType
        self.shape = shape
        self.owner = owner
    }

    /// Adopts an OrtValue ONNX Runtime created (a run's output); releases it on deinit.
    init(adopting value: OpaquePointer, api: ORTAPI) throws {
        self.api = api
        self.value = value
        self.owner = nil
        do {
            var isTensor: Int32 = 0
            try api.check(api.f.IsTensor(value, &isTensor), "IsTensor")
            guard isTensor != 0 else {
                throw ONNXRuntimeError(.invalidTensor, "the value is not a tensor (sequences and maps are not supported)")
            }
            var info: OpaquePointer?
            try api.check(api.f.GetTensorTypeAndShape(value, &info), "GetTensorTypeAndShape")
            guard let info else { throw ONNXRuntimeError(.runtime, "GetTensorTypeAndShape returned nothing") }
            defer { api.f.ReleaseTensorTypeAndShapeInfo(info) }
            let described = try TensorInfo.read(info, name: "", api: api)
            self.elementType = described.elementType
            self.shape = described.shape.map { $0.value ?? 0 }
        } catch {
            api.f.ReleaseValue(value)
            throw error
        }
    }

    deinit { api.f.ReleaseValue(value) }

    // MARK: Reading tensors

    /// Calls `body` with the elements in place (no copy). The buffer is valid only inside `body`.
    public func withUnsafeBufferPointer<T: TensorElement, R>(
        of type: T.Type = T.self, _ body: (UnsafeBufferPointer<T>) throws -> R
    ) throws -> R {
        guard T.elementType == elementType else {
            throw ONNXRuntimeError(.typeMismatch, "the tensor holds \(description), it was read as \(T.elementType)")
        }
        let n = count
        if n == 0 { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        var data: UnsafeMutableRawPointer?
        try api.check(api.f.GetTensorMutableData(value, &data), "GetTensorMutableData")
        guard let data else { throw ONNXRuntimeError(.runtime, "ONNX Runtime gave no data for \(description)") }
        return try body(UnsafeBufferPointer(start: data.assumingMemoryBound(to: T.self), count: n))
    }

    /// The elements, copied into an array.
    public func scalars<T: TensorElement>(as type: T.Type = T.self) throws -> [T] {
        try withUnsafeBufferPointer(of: T.self) { Array($0) }
    }

    /// The raw bytes of the elements, copied (for element types read without a Swift type).
    public func bytes() throws -> [UInt8] {
        let n = count * (elementType.byteSize ?? 0)
        if n == 0 { return [] }
        var data: UnsafeMutableRawPointer?
        try api.check(api.f.GetTensorMutableData(value, &data), "GetTensorMutableData")
        guard let data else { throw ONNXRuntimeError(.runtime, "ONNX Runtime gave no data for \(description)") }
        return Array(UnsafeRawBufferPointer(start: data, count: n))
    }

    // MARK: Helpers

    static func checkedCount(_ shape: [Int]) throws -> Int {
        var count = 1
        for dim in shape {
            guard dim >= 0 else {
                throw ONNXRuntimeError(.invalidTensor, "shape \(shape) has a negative dimension")
            }
            let (product, overflow) = count.multipliedReportingOverflow(by: dim)
            guard !overflow else { throw ONNXRuntimeError(.invalidTensor, "shape \(shape) is too large") }
            count = product
        }
        return count
    }

    private static func makeValue(
        api: ORTAPI, data: UnsafeMutableRawPointer, byteCount: Int, shape: [Int], elementType: ElementType
    ) throws -> OpaquePointer {
        let memory = try CPUMemoryInfo.shared(api)
        let dims = shape.map(Int64.init)
        var out: OpaquePointer?
        try dims.withUnsafeBufferPointer { dimsBuffer in
            try api.check(api.f.CreateTensorWithDataAsOrtValue(
                memory.handle, data, byteCount, dimsBuffer.baseAddress, dims.count,
                ONNXTensorElementDataType(UInt32(elementType.rawValue)), &out), "creating a \(elementType)\(shape) tensor")
        }
        guard let out else { throw ONNXRuntimeError(.runtime, "CreateTensorWithDataAsOrtValue returned nothing") }
        return out
    }
}

/// The CPU memory description every tensor Warble makes refers to; created once.
final class CPUMemoryInfo: @unchecked Sendable {
    // Immutable after creation; ONNX Runtime only reads it.
    let handle: OpaquePointer

    private init(handle: OpaquePointer) { self.handle = handle }

    private static let lock = Lock()
    nonisolated(unsafe) private static var cached: CPUMemoryInfo?

    static func shared(_ api: ORTAPI) throws -> CPUMemoryInfo {
        try lock.withLock {
            if let cached { return cached }
            var info: OpaquePointer?
            try api.check(api.f.CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &info), "CreateCpuMemoryInfo")
            guard let info else { throw ONNXRuntimeError(.runtime, "CreateCpuMemoryInfo returned nothing") }
            let made = CPUMemoryInfo(handle: info)
            cached = made
            return made
        }
    }
}
