import Foundation
import WarbleEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HistoryAudio {
    /// Stores a file whose SHA-256 is known before its bytes are read, chunk by chunk: `fill` hands each chunk
    /// to the sink it is given. The bytes go to a temporary file that is flushed and renamed into place only
    /// when their digest is `sha256`. True when a file was written, false when it was already stored.
    func store(sha256: String, format: String, fill: ((Data) throws -> Void) throws -> Void) throws -> Bool {
        let target = url(sha256: sha256, format: format)
        let manager = FileManager.default
        if manager.fileExists(atPath: target.path) {
            // Fresh again, so that no sweep takes it for an orphan before the row pointing at it is written.
            try? manager.setAttributes([.modificationDate: Date()], ofItemAtPath: target.path)
            return false
        }
        let folder = target.deletingLastPathComponent()
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".tmp-\(UUID().uuidString)")
        guard manager.createFile(atPath: temporary.path, contents: nil) else {
            throw HistoryError.wrapping(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO), doing: "write an audio file", at: folder.path)
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            var digest = SHA256()
            do {
                try fill { chunk in
                    digest.update(chunk)
                    try handle.write(contentsOf: chunk)
                }
                try handle.synchronize()
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            let found = digest.finalizeHex()
            guard found == sha256 else {
                throw HistoryError(.corrupt, "audio file \(sha256).\(format) has the SHA-256 \(found) (its bytes changed)")
            }
            guard rename(temporary.path, target.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            if let directory = try? FileHandle(forReadingFrom: folder) {
                try? directory.synchronize()
                try? directory.close()
            }
        } catch {
            try? manager.removeItem(at: temporary)
            throw error
        }
        return true
    }
}
