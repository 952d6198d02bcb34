import CAVCodec
import Foundation

/// Reads ADTS AAC back (FFmpeg's AAC decoder), frame by frame: what checks that the encoder's output
/// is a stream real decoders accept.
public enum AACDecoder {
    /// The mono samples and sample rate of an ADTS stream; throws on a malformed frame.
    public static func decode(_ data: Data) throws -> (samples: [Float], sampleRate: Int) {
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
                rate = Int(frame.pointee.sample_rate)
                let count = Int(frame.pointee.nb_samples)
                guard frame.pointee.format == AV_SAMPLE_FMT_FLTP.rawValue, let plane = frame.pointee.data.0 else {
                    throw AACError("the AAC decoder gave samples of format \(frame.pointee.format)")
                }
                plane.withMemoryRebound(to: Float.self, capacity: count) { samples += UnsafeBufferPointer(start: $0, count: count) }
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
        return (samples, rate)
    }
}
