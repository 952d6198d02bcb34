/// A Swift type whose values can be laid out in a tensor exactly as ONNX Runtime stores them.
public protocol TensorElement: Sendable, BitwiseCopyable {
    static var elementType: ElementType { get }
}

extension Float: TensorElement { public static var elementType: ElementType { .float32 } }
extension Double: TensorElement { public static var elementType: ElementType { .float64 } }
extension Int64: TensorElement { public static var elementType: ElementType { .int64 } }
extension Int32: TensorElement { public static var elementType: ElementType { .int32 } }
extension Int16: TensorElement { public static var elementType: ElementType { .int16 } }
extension Int8: TensorElement { public static var elementType: ElementType { .int8 } }
extension UInt8: TensorElement { public static var elementType: ElementType { .uint8 } }
extension UInt16: TensorElement { public static var elementType: ElementType { .uint16 } }
extension Bool: TensorElement { public static var elementType: ElementType { .bool } }

#if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
extension Float16: TensorElement { public static var elementType: ElementType { .float16 } }
#endif
