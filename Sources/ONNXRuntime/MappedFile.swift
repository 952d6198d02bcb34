import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file mapped read-only into memory, unmapped when released.
final class MappedFile: @unchecked Sendable {
    // Immutable after init; the mapping is read-only.
    let bytes: UnsafeRawPointer
    let count: Int

    init(path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ONNXRuntimeError(.modelNotFound, "could not open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else {
            throw ONNXRuntimeError(.invalidModel, "\(path) is empty or unreadable")
        }
        count = Int(status.st_size)
        guard let mapping = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else {
            throw ONNXRuntimeError(.runtime, "could not map \(path): \(String(cString: strerror(errno)))")
        }
        bytes = UnsafeRawPointer(mapping)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes), count) }
}
