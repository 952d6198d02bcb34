/// Every failure of the ONNX Runtime layer: ONNX Runtime's own statuses (with its error code and
/// message) and the checks this binding makes before calling it.
public struct ONNXRuntimeError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, coarsely; `message` says the rest.
    public enum Kind: Sendable, Equatable {
        /// The shared library could not be found or opened.
        case libraryNotFound
        /// The library was opened but is too old or is not ONNX Runtime.
        case libraryIncompatible
        /// The model file does not exist or cannot be read.
        case modelNotFound
        /// The bytes are not a loadable ONNX model (not protobuf, truncated, invalid graph).
        case invalidModel
        /// An input or output name the model does not have.
        case unknownName
        /// A required input was not given.
        case missingInput
        /// A tensor's element type differs from the model's.
        case typeMismatch
        /// A tensor's shape differs from the model's (rank or a fixed dimension).
        case shapeMismatch
        /// A tensor was built or read with inconsistent arguments.
        case invalidTensor
        /// The run was cancelled through `RunOptions.terminate()`.
        case cancelled
        /// Any other status ONNX Runtime returned.
        case runtime
    }

    public let kind: Kind
    /// ONNX Runtime's `OrtErrorCode`, when the error came from ONNX Runtime.
    public let ortCode: Int32?
    public let message: String

    public init(_ kind: Kind, _ message: String, ortCode: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.ortCode = ortCode
    }

    public var description: String {
        if let ortCode { return "\(message) (ONNX Runtime error \(ORTErrorCodeName.name(ortCode)))" }
        return message
    }
}

/// Names for ONNX Runtime's `OrtErrorCode` values, for messages.
enum ORTErrorCodeName {
    static func name(_ code: Int32) -> String {
        switch code {
        case 0: "OK"
        case 1: "FAIL"
        case 2: "INVALID_ARGUMENT"
        case 3: "NO_SUCHFILE"
        case 4: "NO_MODEL"
        case 5: "ENGINE_ERROR"
        case 6: "RUNTIME_EXCEPTION"
        case 7: "INVALID_PROTOBUF"
        case 8: "MODEL_LOADED"
        case 9: "NOT_IMPLEMENTED"
        case 10: "INVALID_GRAPH"
        case 11: "EP_FAIL"
        case 12: "MODEL_LOAD_CANCELED"
        case 13: "MODEL_REQUIRES_COMPILATION"
        case 14: "NOT_FOUND"
        default: "code \(code)"
        }
    }
}
