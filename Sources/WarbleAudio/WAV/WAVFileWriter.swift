import Foundation

/// Writes a WAV file as audio arrives and patches the RIFF and data sizes on `close()`.
/// For outputs that cannot seek (pipes, sockets) use `WAVStreamWriter`.
/// Not `Sendable`: one writer belongs to one task.
public final class WAVFileWriter {
    public let url: URL
    public let sampleRate: Int
    public let channelCount: Int
    private let encoder: WAVEncoder
    private var handle: FileHandle?
    private var dataBytes = 0
    private let headerSize: Int

    public init(url: URL, sampleRate: Int, channelCount: Int = 1, sampleFormat: WAVSampleFormat = .int16) throws(WAVError) {
        guard sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard channelCount >= 1, channelCount <= WAVDecoder.maximumChannelCount else {
            throw .invalidChannelCount(channelCount)
        }
        self.url = url
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        encoder = try WAVEncoder(sampleFormat: sampleFormat)
        let header = try encoder.header(sampleRate: sampleRate, channelCount: channelCount, dataByteCount: 0)
        headerSize = header.count
        do {
            let file = try OutputFile.open(url.path)
            try file.write(contentsOf: header)
            handle = file
        } catch let error as OutputFile.OpenError {
            throw .io(path: url.path, message: error.reason)
        } catch {
            throw .io(path: url.path, message: "cannot write the header: \(error.localizedDescription)")
        }
    }

    deinit { try? close() }

    /// Frames written so far.
    public var frameCount: Int { dataBytes / (channelCount * encoder.sampleFormat.bytesPerSample) }

    public func write(_ buffer: AudioBuffer) throws(WAVError) {
        guard let handle else { throw .closed }
        guard buffer.sampleRate == sampleRate, buffer.channelCount == channelCount else {
            throw .mismatchedBuffer(
                sampleRate: buffer.sampleRate, channelCount: buffer.channelCount,
                expectedSampleRate: sampleRate, expectedChannelCount: channelCount)
        }
        let payload = encoder.encodeSamples(buffer)
        do { try handle.write(contentsOf: payload) } catch {
            throw .io(path: url.path, message: "write failed: \(error.localizedDescription)")
        }
        dataBytes += payload.count
    }

    /// Pads the data chunk to an even size, writes the final sizes into the header and closes the file.
    /// Sizes past 4 GiB are written as 0xFFFFFFFF, which `WAVDecoder` reads as "to the end of the file".
    /// Calling it twice is harmless.
    public func close() throws(WAVError) {
        guard let handle else { return }
        self.handle = nil
        do {
            if dataBytes & 1 == 1 { try handle.write(contentsOf: Data([0])) }
            let riff = headerSize - 8 + dataBytes + (dataBytes & 1)
            var riffField = Data(), dataField = Data()
            riffField.appendLE(riff <= Int(UInt32.max) ? UInt32(riff) : 0xFFFF_FFFF)
            dataField.appendLE(dataBytes <= Int(UInt32.max) ? UInt32(dataBytes) : 0xFFFF_FFFF)
            try handle.seek(toOffset: 4)
            try handle.write(contentsOf: riffField)
            try handle.seek(toOffset: UInt64(headerSize - 4))
            try handle.write(contentsOf: dataField)
            try handle.close()
        } catch {
            throw .io(path: url.path, message: "cannot finish the file: \(error.localizedDescription)")
        }
    }
}
