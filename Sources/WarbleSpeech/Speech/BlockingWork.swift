import Dispatch

/// Runs blocking model work (ONNX Runtime's Run) off Swift's cooperative thread pool, so a long
/// synthesis never starves other tasks (a server's request handling, a status stream).
enum BlockingWork {
    private static let queue = DispatchQueue(label: "warble.model-work", qos: .userInitiated, attributes: .concurrent)

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
