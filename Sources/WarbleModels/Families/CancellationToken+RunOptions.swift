import ONNXRuntime
import WarbleSpeech

extension CancellationToken {
    /// Runs `body` with ONNX Runtime run options whose terminate flag this token sets: cancelling the
    /// token stops a run under way (it fails with ONNX Runtime's `.cancelled` error). A token that is
    /// already cancelled throws `CancellationError` before any run.
    func withRunOptions<T>(_ body: (RunOptions) throws -> T) throws -> T {
        try check()
        let options = try RunOptions()
        let registration = onCancel { try? options.terminate() }
        defer { registration.cancel() }
        return try body(options)
    }
}
