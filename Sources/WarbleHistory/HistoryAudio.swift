import Foundation
import WarbleEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Audio files kept by content: `audio/ab/abcdef….ext`, named by the SHA-256 of their bytes, so the same
/// bytes are stored once. A file is written to a temporary name, flushed to disk and renamed into place,
/// so a name under `audio/` always holds the whole file.
struct HistoryAudio: Sendable {
    let directory: URL

    func url(sha256: String, format: String) -> URL {
        directory.appendingPathComponent(String(sha256.prefix(2)), isDirectory: true)
            .appendingPathComponent(sha256 + "." + format)
    }

    /// Stores `data` (or finds it already stored) and returns its digest.
    func store(_ data: Data, format: String) throws -> String {
        let sha256 = SHA256.hex(data)
        let target = url(sha256: sha256, format: format)
        let manager = FileManager.default
        if manager.fileExists(atPath: target.path) {
            // Fresh again, so that no sweep takes it for an orphan before the row pointing at it is written.
            try? manager.setAttributes([.modificationDate: Date()], ofItemAtPath: target.path)
            return sha256
        }
        let folder = target.deletingLastPathComponent()
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".tmp-\(UUID().uuidString)")
        do {
            try Self.writeDurably(data, to: temporary.path)
            guard rename(temporary.path, target.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            Self.syncDirectory(folder.path)
        } catch {
            try? manager.removeItem(at: temporary)
            throw error
        }
        return sha256
    }

    /// Removes the files of these digests.
    func remove(_ files: [(sha256: String, format: String)]) {
        for file in files { remove(url(sha256: file.sha256, format: file.format)) }
    }

    /// Removes one file, and its folder when that is left empty (callers hold the write lock, so no writer
    /// is between making the folder and renaming a file into it). True when the file was removed.
    @discardableResult
    func remove(_ file: URL) -> Bool {
        guard (try? FileManager.default.removeItem(at: file)) != nil else { return false }
        _ = rmdir(file.deletingLastPathComponent().path)  // fails, harmlessly, when other files remain
        return true
    }

    /// Every stored file (and left-over temporary file) with its modification date.
    func allFiles() -> [(url: URL, modified: Date)] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.contentModificationDateKey, .isRegularFileKey])
        else { return [] }
        var files: [(url: URL, modified: Date)] = []
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.contentModificationDateKey, .isRegularFileKey])
            guard values?.isRegularFile == true else { continue }
            files.append((url, values?.contentModificationDate ?? .distantPast))
        }
        return files
    }

    private static func writeDurably(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
        guard fsync(fd) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
