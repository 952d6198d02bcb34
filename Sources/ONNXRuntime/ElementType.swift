/// The element type of a tensor, with ONNX's numbering (`ONNXTensorElementDataType`).
public enum ElementType: Int32, Sendable, CaseIterable, CustomStringConvertible {
    case undefined = 0
    case float32 = 1
    case uint8 = 2
    case int8 = 3
    case uint16 = 4
    case int16 = 5
    case int32 = 6
    case int64 = 7
    case string = 8
    case bool = 9
    case float16 = 10
    case float64 = 11
    case uint32 = 12
    case uint64 = 13
    case complex64 = 14
    case complex128 = 15
    case bfloat16 = 16

    /// Size of one element in bytes, or nil for types this binding does not lay out (strings, complex).
    public var byteSize: Int? {
        switch self {
        case .float32, .int32, .uint32: 4
        case .float64, .int64, .uint64: 8
        case .float16, .bfloat16, .int16, .uint16: 2
        case .int8, .uint8, .bool: 1
        case .undefined, .string, .complex64, .complex128: nil
        }
    }

    /// The ONNX spelling, as in `tensor(float16)`.
    public var description: String {
        switch self {
        case .undefined: "undefined"
        case .float32: "float"
        case .uint8: "uint8"
        case .int8: "int8"
        case .uint16: "uint16"
        case .int16: "int16"
        case .int32: "int32"
        case .int64: "int64"
        case .string: "string"
        case .bool: "bool"
        case .float16: "float16"
        case .float64: "double"
        case .uint32: "uint32"
        case .uint64: "uint64"
        case .complex64: "complex64"
        case .complex128: "complex128"
        case .bfloat16: "bfloat16"
        }
    }
}
