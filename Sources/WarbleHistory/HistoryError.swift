import Foundation
import GRDB

/// Why the history could not be read or written. The message says what failed, where, and why
/// (a read-only home, a full disk, …); callers that record a session print it as a warning and go on.
public struct HistoryError: Error, CustomStringConvertible, Sendable {
    public enum Reason: Sendable, Equatable {
        case readOnly, diskFull, notFound, corrupt, unsafeFileSystem, other
    }

    public let reason: Reason
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }

    /// Wraps any error met while doing `what` at `path` into a HistoryError that names the cause.
    static func wrapping(_ error: any Error, doing what: String, at path: String) -> HistoryError {
        if let error = error as? HistoryError { return error }
        var reason = classify(error)
        // SQLite meets a full disk as an I/O error too (growing the WAL index, -shm, fails): the disk says which.
        if reason == .other, error is DatabaseError, freeBytes(near: path) == 0 { reason = .diskFull }
        let cause: String
        switch reason {
        case .readOnly: cause = "it is read-only or not writable"
        case .diskFull: cause = "the disk is full"
        case .corrupt: cause = "the database is damaged"
        case .notFound, .unsafeFileSystem, .other: cause = describe(error)
        }
        return HistoryError(reason, "cannot \(what) at \(path): \(cause)")
    }

    /// The free space of the file system holding `path` (or its nearest existing parent), nil when unknown.
    static func freeBytes(near path: String) -> Int64? {
        var url = URL(fileURLWithPath: path)
        while !FileManager.default.fileExists(atPath: url.path), url.pathComponents.count > 1 { url.deleteLastPathComponent() }
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }

    /// A sentence for people: SQLite's message, else Foundation's description (not the NSError dump).
    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }

    private static func classify(_ error: any Error) -> Reason {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH, .SQLITE_CANTOPEN: return .readOnly
            case .SQLITE_FULL: return .diskFull
            case .SQLITE_CORRUPT, .SQLITE_NOTADB: return .corrupt
            default:
                return .other
            }
        }
        var errno: Int32?
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain {
            errno = Int32(ns.code)
        } else if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            errno = Int32(underlying.code)
        } else if ns.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileWriteNoPermission, .fileWriteVolumeReadOnly, .fileReadNoPermission: return .readOnly
            case .fileWriteOutOfSpace: return .diskFull
            default: break
            }
        }
        switch errno {
        case EROFS, EACCES, EPERM: return .readOnly
        case ENOSPC, EDQUOT: return .diskFull
        default: return .other
        }
    }
}
