import CSndFile
import Foundation

/// Audio files in any format libsndfile knows (WAV, FLAC, Ogg Vorbis/Opus, MP3, AIFF, …), as
/// Float samples in [-1, 1]. For WAV alone, `WAVDecoder` / `WAVEncoder` need no C library.
public enum SoundFile {
    /// libsndfile's version string, e.g. "libsndfile-1.2.0".
    public static var libraryVersion: String { String(cString: sf_version_string()) }

    /// Formats this libsndfile build can write (checked at run time).
    public static var writableFormats: [SoundFileFormat] { SoundFileFormat.allCases.filter(canWrite) }

    /// Whether this libsndfile build can write `format` (at 48 kHz stereo or mono).
    public static func canWrite(_ format: SoundFileFormat) -> Bool {
        var info = SF_INFO()
        info.samplerate = 48000
        info.channels = 1
        info.format = format.libsndfileFormat
        return sf_format_check(&info) != 0
    }

    /// Reads a whole file within the standard limits (8–192 kHz, at most 64 channels).
    public static func read(contentsOf url: URL) throws(SoundFileError) -> AudioBuffer {
        try load(contentsOf: url).buffer
    }

    /// Decodes a file held in memory within the standard limits (8–192 kHz, at most 64 channels).
    public static func decode(_ data: Data) throws(SoundFileError) -> AudioBuffer {
        try load(data: data).buffer
    }

    /// Reads a whole file within `limits`, noting whether it is cut short.
    public static func load(contentsOf url: URL, limits: DecodeLimits = .standard) throws(SoundFileError) -> DecodedAudio {
        var info = SF_INFO()
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else {
            let reason = String(cString: sf_strerror(nil))
            if let decoder = externalDecoder(forFileAt: url) {
                return try loadExternally(url, decoder: decoder, limits: limits)
            }
            throw .cannotOpen(path: url.path, reason: reason)
        }
        defer { sf_close(file) }
        return try readAll(file, info: info, path: url.path, limits: limits)
    }

    /// The largest file handed whole to an external decoder (an hour of AAC at 64 kbit/s is 29 MB).
    public static let externalDecoderMaximumBytes = 512 << 20

    private static func externalDecoder(forFileAt url: URL) -> (any ExternalAudioDecoder)? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: 16), !prefix.isEmpty else { return nil }
        return ExternalAudioDecoders.decoder(recognising: prefix)
    }

    private static func loadExternally(_ url: URL, decoder: any ExternalAudioDecoder, limits: DecodeLimits)
        throws(SoundFileError) -> DecodedAudio {
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
        guard size <= externalDecoderMaximumBytes else {
            throw .readFailed(path: url.path, reason: "\(decoder.formatName) files over \(externalDecoderMaximumBytes >> 20) MB are not read")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .cannotOpen(path: url.path, reason: "cannot be read")
        }
        return DecodedAudio(buffer: try decoder.decode(data, limits: limits), declaredFrames: nil)
    }

    /// Decodes a file held in memory within `limits`, noting whether it is cut short.
    public static func load(data: Data, limits: DecodeLimits = .standard) throws(SoundFileError) -> DecodedAudio {
        let memory = MemoryFile(data)
        var info = SF_INFO()
        var io = MemoryFile.virtualIO
        let user = Unmanaged.passUnretained(memory).toOpaque()
        guard let file = sf_open_virtual(&io, Int32(SFM_READ), &info, user) else {
            let reason = String(cString: sf_strerror(nil))
            if let decoder = ExternalAudioDecoders.decoder(recognising: data.prefix(16)) {
                return DecodedAudio(buffer: try decoder.decode(data, limits: limits), declaredFrames: nil)
            }
            throw .cannotOpen(path: "<memory>", reason: reason)
        }
        defer { sf_close(file); withExtendedLifetime(memory) {} }
        return try readAll(file, info: info, path: "<memory>", limits: limits)
    }

    /// Writes `buffer` as `format`; `quality` (0…1) sets lossy encoders' quality (default: library's).
    public static func write(
        _ buffer: AudioBuffer, to url: URL, format: SoundFileFormat, quality: Double? = nil
    ) throws(SoundFileError) {
        var info = try checkedInfo(buffer, format)
        guard let file = sf_open(url.path, Int32(SFM_WRITE), &info) else {
            throw .writeFailed(path: url.path, reason: String(cString: sf_strerror(nil)))
        }
        try writeAll(buffer, to: file, format: format, quality: quality, path: url.path)
    }

    /// Encodes `buffer` as `format` in memory.
    public static func encode(_ buffer: AudioBuffer, format: SoundFileFormat, quality: Double? = nil) throws(SoundFileError) -> Data {
        var info = try checkedInfo(buffer, format)
        let memory = MemoryFile(Data())
        var io = MemoryFile.virtualIO
        let user = Unmanaged.passUnretained(memory).toOpaque()
        guard let file = sf_open_virtual(&io, Int32(SFM_WRITE), &info, user) else {
            throw .writeFailed(path: "<memory>", reason: String(cString: sf_strerror(nil)))
        }
        try writeAll(buffer, to: file, format: format, quality: quality, path: "<memory>")
        return withExtendedLifetime(memory) { memory.data }
    }

    private static func checkedInfo(_ buffer: AudioBuffer, _ format: SoundFileFormat) throws(SoundFileError) -> SF_INFO {
        guard canWrite(format) else { throw .formatUnavailable(format, libsndfile: libraryVersion) }
        if let rates = format.allowedSampleRates, !rates.contains(buffer.sampleRate) {
            throw .unsupportedSampleRate(buffer.sampleRate, format: format, accepted: rates)
        }
        var info = SF_INFO()
        info.samplerate = Int32(clamping: buffer.sampleRate)
        info.channels = Int32(clamping: buffer.channelCount)
        info.format = format.libsndfileFormat
        guard sf_format_check(&info) != 0 else { throw .unsupportedChannelCount(buffer.channelCount, format: format) }
        return info
    }

    private static func readAll(_ file: OpaquePointer, info: SF_INFO, path: String, limits: DecodeLimits)
        throws(SoundFileError) -> DecodedAudio {
        let channels = Int(info.channels)
        let rate = Int(info.samplerate)
        guard channels > 0, rate > 0 else {
            throw .readFailed(path: path, reason: "file declares \(channels) channels at \(rate) Hz")
        }
        guard limits.sampleRates.contains(rate) else {
            throw .unsupportedFileSampleRate(path: path, rate: rate, accepted: limits.sampleRates)
        }
        guard channels <= limits.maximumChannels else {
            throw .tooManyChannels(path: path, channels: channels, maximum: limits.maximumChannels)
        }
        let maximumFrames = limits.maximumSeconds.map { Int(min($0 * Double(rate), Double(Int.max / 2))) }
        // MP3 lengths are estimated from the bit rate; every other format states its frames exactly.
        let isMPEG = info.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_MPEG)
        let declared = !isMPEG && info.frames > 0 && info.frames < Int64(Int32.max) * 64 ? Int(info.frames) : nil
        if let declared, let maximumFrames, declared > maximumFrames {
            throw .tooLong(path: path, seconds: Double(declared) / Double(rate), maximumSeconds: limits.maximumSeconds ?? 0)
        }
        // Frame counts of compressed streams are estimates: read in blocks until libsndfile stops. The
        // reservation trusts the header only as far as the bytes it could take.
        var interleaved = [Float]()
        if let declared { interleaved.reserveCapacity(min(declared, maximumFrames ?? declared, 1 << 22) * channels) }
        let blockFrames = max(1024, 65536 / channels)
        var block = [Float](repeating: 0, count: blockFrames * channels)
        var frames = 0
        while true {
            let got = block.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(blockFrames)) }
            if got <= 0 { break }
            frames += Int(got)
            if let maximumFrames, frames > maximumFrames {
                throw .tooLong(path: path, seconds: nil, maximumSeconds: limits.maximumSeconds ?? 0)
            }
            interleaved.append(contentsOf: block[0..<(Int(got) * channels)])
        }
        // A decoder error in a file that declared more audio than was decoded is a file cut short: what
        // was decoded is kept (perhaps nothing) and the file is reported as truncated.
        let cutShort = declared.map { frames < $0 } == true
        if sf_error(file) != 0, !cutShort { throw .readFailed(path: path, reason: String(cString: sf_strerror(file))) }
        do {
            let buffer = try AudioBuffer(interleaved: interleaved, channelCount: channels, sampleRate: rate)
            return DecodedAudio(buffer: buffer, declaredFrames: declared)
        } catch {
            throw .readFailed(path: path, reason: error.description)
        }
    }

    private static func writeAll(
        _ buffer: AudioBuffer, to file: OpaquePointer, format: SoundFileFormat, quality: Double?, path: String
    ) throws(SoundFileError) {
        var closed = false
        defer { if !closed { sf_close(file) } }
        if let quality, format.isLossy {
            var level = 1 - min(max(quality, 0), 1)  // libsndfile: 0 = best, 1 = smallest
            _ = sf_command(file, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
        }
        var clipping = Int32(1)  // clip instead of wrapping when floats exceed [-1, 1]
        _ = sf_command(file, Int32(SFC_SET_CLIPPING), &clipping, 0)
        let samples = buffer.interleaved()
        let written = samples.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t(buffer.frameCount)) }
        guard written == buffer.frameCount else {
            let said = sf_error(file) != 0 ? String(cString: sf_strerror(file)) : ""
            throw .writeFailed(path: path, reason: "libsndfile's \(format) encoder took \(max(0, written)) of "
                + "\(buffer.frameCount) frames" + (said.isEmpty ? " without saying why" : " (\(said))"))
        }
        closed = true
        guard sf_close(file) == 0 else { throw .writeFailed(path: path, reason: "closing failed") }
    }
}

/// A growable in-memory file for libsndfile's virtual I/O.
final class MemoryFile {
    var data: Data
    var position = 0

    init(_ data: Data) { self.data = data }

    static func from(_ user: UnsafeMutableRawPointer?) -> MemoryFile {
        Unmanaged<MemoryFile>.fromOpaque(user!).takeUnretainedValue()
    }

    /// Where a virtual-IO seek lands (`SEEK_SET`, `SEEK_CUR` from `position`, `SEEK_END` from `end`), or nil
    /// before the start. Shared by every in-memory file libsndfile reads or writes.
    static func seekTarget(_ offset: sf_count_t, _ whence: Int32, position: Int, end: Int) -> Int? {
        let base: Int
        switch whence {
        case SEEK_CUR: base = position
        case SEEK_END: base = end
        default: base = 0
        }
        let target = base + Int(offset)
        return target >= 0 ? target : nil
    }

    static let virtualIO = SF_VIRTUAL_IO(
        get_filelen: { user in sf_count_t(MemoryFile.from(user).data.count) },
        seek: { offset, whence, user in
            let file = MemoryFile.from(user)
            guard let target = MemoryFile.seekTarget(offset, whence, position: file.position, end: file.data.count) else { return -1 }
            file.position = target
            return sf_count_t(target)
        },
        read: { pointer, count, user in
            let file = MemoryFile.from(user)
            guard let pointer, count > 0, file.position < file.data.count else { return 0 }
            let n = min(Int(count), file.data.count - file.position)
            file.data.withUnsafeBytes { raw in
                pointer.copyMemory(from: raw.baseAddress! + file.position, byteCount: n)
            }
            file.position += n
            return sf_count_t(n)
        },
        write: { pointer, count, user in
            let file = MemoryFile.from(user)
            guard let pointer, count > 0 else { return 0 }
            let n = Int(count)
            if file.position > file.data.count { file.data.append(Data(count: file.position - file.data.count)) }
            let bytes = Data(bytes: pointer, count: n)
            let end = min(file.position + n, file.data.count)
            file.data.replaceSubrange(file.position..<end, with: bytes)
            file.position += n
            return sf_count_t(n)
        },
        tell: { user in sf_count_t(MemoryFile.from(user).position) }
    )
}
