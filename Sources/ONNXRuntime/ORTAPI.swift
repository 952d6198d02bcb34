import CONNXRuntime

/// The loaded ONNX Runtime function table. Internal: only this target touches ORT pointers.
struct ORTAPI: @unchecked Sendable {
    // The table is immutable and process-wide, owned by the loaded library, which is never unloaded.
    let table: UnsafePointer<OrtApi>

    var f: OrtApi { table.pointee }

    /// Turns an `OrtStatus*` into a Swift error (and frees it). `context` starts the message.
    func check(_ status: OpaquePointer?, _ context: @autoclosure () -> String = "") throws {
        guard let status else { return }
        let code = f.GetErrorCode(status)
        let text = f.GetErrorMessage(status).map { String(cString: $0) } ?? "unknown error"
        f.ReleaseStatus(status)
        let prefix = context()
        let message = prefix.isEmpty ? text : "\(prefix): \(text)"
        throw ONNXRuntimeError(Self.kind(forCode: Int32(bitPattern: code.rawValue), message: text), message,
                               ortCode: Int32(bitPattern: code.rawValue))
    }

    private static func kind(forCode code: Int32, message: String) -> ONNXRuntimeError.Kind {
        switch code {
        case 3: .modelNotFound
        case 4, 7, 10: .invalidModel
        default:
            message.contains("Exiting due to terminate flag") ? .cancelled : .runtime
        }
    }

    /// Reads a string ORT allocated with `allocator` and frees it.
    func takeString(_ pointer: UnsafeMutablePointer<CChar>?, allocator: OpaquePointer) -> String {
        guard let pointer else { return "" }
        defer { _ = f.AllocatorFree(allocator, pointer) }
        return String(cString: pointer)
    }

    /// ORT's default CPU allocator (not to be released).
    func defaultAllocator() throws -> OpaquePointer {
        var allocator: OpaquePointer?
        try check(f.GetAllocatorWithDefaultOptions(&allocator), "GetAllocatorWithDefaultOptions")
        guard let allocator else { throw ONNXRuntimeError(.runtime, "ONNX Runtime returned no default allocator") }
        return allocator
    }
}
