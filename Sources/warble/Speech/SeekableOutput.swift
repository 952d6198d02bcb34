import Foundation

/// Standard output as a file that can be written back into (`warble say -o - > f.wav`): where its bytes
/// begin, so that a WAV header streamed with unknown sizes can be written over once they are known.
struct SeekableOutput {
    let handle: FileHandle
    /// The offset in the file of the first byte written through `handle`.
    let start: Int64

    /// nil for pipes, terminals, sockets and files opened to append (`>>`: a write back would append).
    init?(_ handle: FileHandle) {
        let descriptor = handle.fileDescriptor
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, flags & O_APPEND == 0 else { return nil }
        let offset = lseek(descriptor, 0, SEEK_CUR)
        guard offset >= 0 else { return nil }
        self.handle = handle
        start = Int64(offset)
    }

    /// Writes `bytes` over the output's first bytes, leaving the write position where it is.
    func overwriteStart(with bytes: Data) throws {
        let written = bytes.withUnsafeBytes { pwrite(handle.fileDescriptor, $0.baseAddress, $0.count, off_t(start)) }
        guard written == bytes.count else {
            throw ValidationErrorMessage("cannot write the WAV sizes into standard output's file: \(String(cString: strerror(errno)))")
        }
    }
}
