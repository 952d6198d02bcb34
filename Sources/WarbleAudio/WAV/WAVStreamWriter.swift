import Foundation

/// Writes WAV to an output that cannot seek (a pipe, a socket, an HTTP response body): the header goes
/// out first with RIFF and data sizes 0xFFFFFFFF, the convention for "unknown length, read to the end"
/// that `WAVDecoder`, ffmpeg, sox and libsndfile accept. Not `Sendable`: one writer belongs to one task.
public final class WAVStreamWriter {
    public let sampleRate: Int
    public let channelCount: Int
    private let encoder: WAVEncoder
    private let sink: (Data) throws -> Void
    private var headerWritten = false

    /// `sink` receives each piece of the stream in order (the header with the first write).
    public init(
        sampleRate: Int, channelCount: Int = 1, sampleFormat: WAVSampleFormat = .int16,
        sink: @escaping (Data) throws -> Void
    ) throws(WAVError) {
        guard sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard channelCount >= 1, channelCount <= WAVDecoder.maximumChannelCount else {
            throw .invalidChannelCount(channelCount)
        }
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.encoder = try WAVEncoder(sampleFormat: sampleFormat)
        self.sink = sink
    }

    /// Writes to a file handle such as `FileHandle.standardOutput`.
    public convenience init(
        fileHandle: FileHandle, sampleRate: Int, channelCount: Int = 1, sampleFormat: WAVSampleFormat = .int16
    ) throws(WAVError) {
        try self.init(sampleRate: sampleRate, channelCount: channelCount, sampleFormat: sampleFormat) { data in
            try fileHandle.write(contentsOf: data)
        }
    }

    /// Sends the header now (otherwise it goes with the first samples).
    public func writeHeader() throws(WAVError) {
        guard !headerWritten else { return }
        let header = try encoder.header(sampleRate: sampleRate, channelCount: channelCount, dataByteCount: nil)
        try send(header)
        headerWritten = true
    }

    public func write(_ buffer: AudioBuffer) throws(WAVError) {
        guard buffer.sampleRate == sampleRate, buffer.channelCount == channelCount else {
            throw .mismatchedBuffer(
                sampleRate: buffer.sampleRate, channelCount: buffer.channelCount,
                expectedSampleRate: sampleRate, expectedChannelCount: channelCount)
        }
        try writeHeader()
        try send(encoder.encodeSamples(buffer))
    }

    private func send(_ data: Data) throws(WAVError) {
        do { try sink(data) } catch {
            throw .io(path: "WAV stream", message: "write failed: \(error)")
        }
    }
}
