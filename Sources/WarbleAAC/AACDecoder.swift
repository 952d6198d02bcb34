import CAVCodec
import Foundation
import WarbleAudio

/// Reads ADTS AAC (FFmpeg's AAC decoder), frame by frame: what `AACEncoder` writes, read back by `warble
/// transcribe` and the server's transcription routes (registered with `ExternalAudioDecoders`), and what checks
/// that the encoder's output is a stream real decoders accept. Channels are averaged to mono.
public struct AACDecoder: ExternalAudioDecoder {
    public init() {}

    public var formatName: String { "AAC (ADTS)" }

    /// Registers the decoder for `SoundFile.load`; false when this libavcodec has no AAC decoder.
    @discardableResult
    public static func register() -> Bool {
        guard avcodec_find_decoder(AV_CODEC_ID_AAC) != nil else { return false }
        av_log_set_level(AV_LOG_ERROR)
        ExternalAudioDecoders.register(AACDecoder())
        return true
    }

    /// An ADTS header's sync word (12 bits set), layer 0, at the start.
    public func recognises(_ prefix: Data) -> Bool {
        let bytes = [UInt8](prefix.prefix(2))
        return bytes.count == 2 && bytes[0] == 0xFF && bytes[1] & 0xF6 == 0xF0
    }

    public func decode(_ data: Data, limits: DecodeLimits) throws(SoundFileError) -> AudioBuffer {
        do {
            let decoded = try Self.decode(data, limits: limits)
            return AudioBuffer(mono: decoded.samples, sampleRate: decoded.sampleRate)
        } catch let error as SoundFileError {
            throw error
        } catch {
            throw .readFailed(path: "<AAC>", reason: "\(error)")
        }
    }

    /// The mono samples and sample rate of an ADTS stream; throws on a malformed frame, a rate or channel count
    /// outside `limits`, or audio longer than they allow.
    public static func decode(_ data: Data, limits: DecodeLimits = .standard) throws -> (samples: [Float], sampleRate: Int) {
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_AAC) else { throw AACError("this libavcodec has no AAC decoder") }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        guard let context else { throw AACError("could not allocate the AAC decoder") }
        guard avcodec_open2(context, codec, nil) >= 0 else { throw AACError("could not open the AAC decoder") }
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let frame, let packet else { throw AACError("could not allocate a frame") }

        let bytes = [UInt8](data)
        var samples: [Float] = []
        var rate = 0
        func receive() throws {
            while avcodec_receive_frame(context, frame) >= 0 {
                let frameRate = Int(frame.pointee.sample_rate)
                let channels = Int(frame.pointee.ch_layout.nb_channels)
                let count = Int(frame.pointee.nb_samples)
                guard limits.sampleRates.contains(frameRate) else {
                    throw SoundFileError.unsupportedFileSampleRate(path: "<AAC>", rate: frameRate, accepted: limits.sampleRates)
                }
                guard (1...limits.maximumChannels).contains(channels) else {
                    throw SoundFileError.tooManyChannels(path: "<AAC>", channels: channels, maximum: limits.maximumChannels)
                }
                guard rate == 0 || rate == frameRate else { throw AACError("the stream changes sample rate (\(rate) to \(frameRate) Hz)") }
                rate = frameRate
                guard frame.pointee.format == AV_SAMPLE_FMT_FLTP.rawValue, let planes = frame.pointee.extended_data else {
                    throw AACError("the AAC decoder gave samples of format \(frame.pointee.format)")
                }
                if let maximum = limits.maximumSeconds, Double(samples.count + count) > maximum * Double(rate) {
                    throw SoundFileError.tooLong(path: "<AAC>", seconds: nil, maximumSeconds: maximum)
                }
                var mixed = [Float](repeating: 0, count: count)
                for channel in 0..<channels {
                    guard let plane = planes[channel] else { continue }
                    plane.withMemoryRebound(to: Float.self, capacity: count) { source in
                        for index in 0..<count { mixed[index] += source[index] / Float(channels) }
                    }
                }
                samples += mixed
            }
        }
        var offset = 0
        while offset < bytes.count {
            guard offset + 7 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xF0 == 0xF0 else {
                throw AACError("no ADTS frame at byte \(offset)")
            }
            let length = Int(bytes[offset + 3] & 0x3) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5]) >> 5
            guard length >= 7, offset + length <= bytes.count else { throw AACError("the ADTS frame at byte \(offset) is cut short") }
            guard av_new_packet(packet, Int32(length)) >= 0, let target = packet.pointee.data else {
                throw AACError("could not allocate a packet")
            }
            bytes.withUnsafeBufferPointer { source in target.update(from: source.baseAddress! + offset, count: length) }
            let status = avcodec_send_packet(context, packet)
            av_packet_unref(packet)
            guard status >= 0 else { throw AACError("the AAC decoder refused the frame at byte \(offset)") }
            try receive()
            offset += length
        }
        _ = avcodec_send_packet(context, nil)
        try receive()
        guard rate > 0 else { throw AACError("the stream holds no audio") }
        return (samples, rate)
    }
}
