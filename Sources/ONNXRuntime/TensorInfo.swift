import CONNXRuntime

/// The declared name, element type and shape of a model input or output.
public struct TensorInfo: Sendable, Equatable, CustomStringConvertible {
    /// One dimension of a declared shape.
    public enum Dimension: Sendable, Equatable, CustomStringConvertible {
        /// A fixed size.
        case fixed(Int)
        /// A named size that can change from run to run (`batch`, `past_len`).
        case symbolic(String)
        /// An unnamed size that can change from run to run.
        case dynamic

        /// The size when fixed.
        public var value: Int? {
            if case .fixed(let size) = self { return size }
            return nil
        }

        public var description: String {
            switch self {
            case .fixed(let size): String(size)
            case .symbolic(let name): name
            case .dynamic: "?"
            }
        }

        /// Whether a concrete size fits this dimension.
        public func accepts(_ size: Int) -> Bool {
            if case .fixed(let fixed) = self { return fixed == size }
            return size >= 0
        }
    }

    /// What kind of ONNX value it is; only tensors are run through this binding.
    public enum ValueKind: Int32, Sendable {
        case unknown = 0, tensor, sequence, map, opaque, sparseTensor, optional
    }

    public let name: String
    public let kind: ValueKind
    public let elementType: ElementType
    public let shape: [Dimension]

    public init(name: String, kind: ValueKind = .tensor, elementType: ElementType, shape: [Dimension]) {
        self.name = name
        self.kind = kind
        self.elementType = elementType
        self.shape = shape
    }

    /// `name: float16[1, past_len, 8]`
    public var description: String { "\(name): \(typeDescription)" }

    /// `float16[1, past_len, 8]`
    public var typeDescription: String {
        kind == .tensor ? "\(elementType)[\(shape.map(\.description).joined(separator: ", "))]" : "\(kind)"
    }

    /// Whether a tensor of this type and shape may be given for this input.
    public func accepts(_ tensor: Tensor) -> Bool {
        kind == .tensor && tensor.elementType == elementType && tensor.shape.count == shape.count
            && zip(shape, tensor.shape).allSatisfy { $0.accepts($1) }
    }

    /// Reads a type-and-shape description.
    static func read(_ info: OpaquePointer, name: String, api: ORTAPI) throws -> TensorInfo {
        var type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED
        try api.check(api.f.GetTensorElementType(info, &type), "GetTensorElementType")
        var rank = 0
        try api.check(api.f.GetDimensionsCount(info, &rank), "GetDimensionsCount")
        var dims = [Int64](repeating: 0, count: rank)
        var symbols = [UnsafePointer<CChar>?](repeating: nil, count: rank)
        if rank > 0 {
            try dims.withUnsafeMutableBufferPointer { buffer in
                try api.check(api.f.GetDimensions(info, buffer.baseAddress!, rank), "GetDimensions")
            }
            try symbols.withUnsafeMutableBufferPointer { buffer in
                try api.check(api.f.GetSymbolicDimensions(info, buffer.baseAddress!, rank), "GetSymbolicDimensions")
            }
        }
        let shape: [Dimension] = (0..<rank).map { index in
            if dims[index] >= 0 { return .fixed(Int(dims[index])) }
            if let symbol = symbols[index].map({ String(cString: $0) }), !symbol.isEmpty { return .symbolic(symbol) }
            return .dynamic
        }
        let elementType = ElementType(rawValue: Int32(bitPattern: type.rawValue)) ?? .undefined
        return TensorInfo(name: name, elementType: elementType, shape: shape)
    }
}
