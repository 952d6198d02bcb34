import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a file for writing the way shell redirection does: created, or emptied in place.
///
/// Never through a temporary file and a rename, as Foundation's `createFile(atPath:)` and atomic
/// writes do: that puts a regular file where a device (`/dev/null`), a pipe or a link was — as root,
/// it replaced the system's `/dev/null`.
public enum OutputFile {
    public struct OpenError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// A handle that writes `path` from its start (closed when the handle is released).
    public static func open(_ path: String) throws(OpenError) -> FileHandle {
        let descriptor = path.withCString { name in
            #if canImport(Glibc)
            Glibc.open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            #else
            Darwin.open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            #endif
        }
        guard descriptor >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
