import CSndFile
import Foundation

/// Encodes mono audio with libsndfile as it comes, handing out the bytes each call produced, for a stream
/// that is read while it is written (MP3: LAME's frames go out as it makes them, a frame or two behind).
/// What libsndfile writes back over bytes already handed out (MP3's LAME/Xing summary, written over the
/// start when the file closes) is dropped: the stream stays a valid file, only without that summary, so MP3
/// is written at a constant bit rate (its length then follows from its size, as readers estimate it).
///
/// Not `Sendable`: it owns the open libsndfile handle and belongs to the one task writing the output.
public final class SoundFileStreamEncoder {
    public let format: SoundFileFormat
    public let sampleRate: Int
    private let file: OpaquePointer
    private let sink: DrainingMemoryFile
    private var closed = false

    /// `sampleRate` must be one `format` takes (`SoundFileFormat.allowedSampleRates`).
    public init(format: SoundFileFormat, sampleRate: Int) throws(SoundFileError) {
        guard SoundFile.canWrite(format) else { throw .formatUnavailable(format, libsndfile: SoundFile.libraryVersion) }
        if let rates = format.allowedSampleRates, !rates.contains(sampleRate) {
            throw .unsupportedSampleRate(sampleRate, format: format, accepted: rates)
        }
        var info = SF_INFO()
        info.samplerate = Int32(clamping: sampleRate)
        info.channels = 1
        info.format = format.libsndfileFormat
        guard sf_format_check(&info) != 0 else { throw .unsupportedChannelCount(1, format: format) }
        let sink = DrainingMemoryFile()
        var io = DrainingMemoryFile.virtualIO
        guard let file = sf_open_virtual(&io, Int32(SFM_WRITE), &info, Unmanaged.passUnretained(sink).toOpaque()) else {
            throw .writeFailed(path: "<stream>", reason: String(cString: sf_strerror(nil)))
        }
        var clipping = Int32(1)  // clip instead of wrapping when floats exceed [-1, 1]
        _ = sf_command(file, Int32(SFC_SET_CLIPPING), &clipping, 0)
        // A constant bit rate: without the summary frame a reader can only tell the length from the size and the
        // first frame's rate (libsndfile stops reading a variable-rate stream at that estimate).
        if info.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_MPEG) {
            var mode = Int32(SF_BITRATE_MODE_CONSTANT)
            let answer = sf_command(file, Int32(SFC_SET_BITRATE_MODE), &mode, Int32(MemoryLayout<Int32>.size))
            let set = sf_command(file, Int32(SFC_GET_BITRATE_MODE), nil, 0)
            guard set == mode else {
                sf_close(file)
                throw .writeFailed(path: "<stream>", reason: "libsndfile's MP3 encoder refused a constant bit rate (\(answer), mode \(set))")
            }
        }
        self.format = format
        self.sampleRate = sampleRate
        self.file = file
        self.sink = sink
    }

    deinit { if !closed { sf_close(file) } }

    /// The bytes the encoder produced for `samples` (perhaps none yet).
    public func encode(_ samples: [Float]) throws(SoundFileError) -> Data {
        guard !closed else { throw .writeFailed(path: "<stream>", reason: "the stream was already finished") }
        guard !samples.isEmpty else { return sink.drain() }
        let written = samples.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t($0.count)) }
        guard written == samples.count else {
            let said = sf_error(file) != 0 ? String(cString: sf_strerror(file)) : "without saying why"
            throw .writeFailed(path: "<stream>", reason: "libsndfile's \(format) encoder took \(max(0, written)) of \(samples.count) frames (\(said))")
        }
        return sink.drain()
    }

    /// The last bytes (the encoder's flush and trailer); the stream is closed after it.
    public func finish() throws(SoundFileError) -> Data {
        guard !closed else { return Data() }
        closed = true
        guard sf_close(file) == 0 else { throw .writeFailed(path: "<stream>", reason: "closing failed") }
        return sink.drain()
    }
}

/// libsndfile's virtual file for a stream: bytes past what was handed out are kept until `drain`; writes over
/// bytes already handed out are dropped (their position still moves).
final class DrainingMemoryFile {
    /// The absolute offset of `pending`'s first byte (everything before it was handed out).
    private var base = 0
    private var pending = Data()
    private var position = 0

    func drain() -> Data {
        defer { base += pending.count; pending = Data() }
        return pending
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> DrainingMemoryFile {
        Unmanaged<DrainingMemoryFile>.fromOpaque(user!).takeUnretainedValue()
    }

    static let virtualIO = SF_VIRTUAL_IO(
        get_filelen: { user in
            let file = DrainingMemoryFile.from(user)
            return sf_count_t(file.base + file.pending.count)
        },
        seek: { offset, whence, user in
            let file = DrainingMemoryFile.from(user)
            guard let target = MemoryFile.seekTarget(offset, whence, position: file.position,
                                                     end: file.base + file.pending.count) else { return -1 }
            file.position = target
            return sf_count_t(target)
        },
        read: { pointer, count, user in
            let file = DrainingMemoryFile.from(user)
            let start = file.position - file.base
            guard let pointer, count > 0, start >= 0, start < file.pending.count else { return 0 }
            let n = min(Int(count), file.pending.count - start)
            file.pending.withUnsafeBytes { raw in pointer.copyMemory(from: raw.baseAddress! + start, byteCount: n) }
            file.position += n
            return sf_count_t(n)
        },
        write: { pointer, count, user in
            let file = DrainingMemoryFile.from(user)
            guard let pointer, count > 0 else { return 0 }
            let n = Int(count)
            defer { file.position += n }
            // The part that falls on bytes already handed out is dropped.
            let skip = max(0, file.base - file.position)
            guard skip < n else { return sf_count_t(n) }
            let start = file.position + skip - file.base
            if start > file.pending.count { file.pending.append(Data(count: start - file.pending.count)) }
            let bytes = Data(bytes: pointer + skip, count: n - skip)
            let end = min(start + bytes.count, file.pending.count)
            file.pending.replaceSubrange(start..<end, with: bytes)
            return sf_count_t(n)
        },
        tell: { user in sf_count_t(DrainingMemoryFile.from(user).position) }
    )
}
