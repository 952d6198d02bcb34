import CAVCodec
import Foundation
import WarbleAudio

/// AAC-LC in ADTS frames, by FFmpeg's native AAC encoder (libavcodec, LGPL-2.1+). An optional target:
/// the core library builds without it, and the `warble` command registers it (`AACEncoder.register()`)
/// so that `--format aac` and the server's `response_format: aac` work.
public struct AACEncoder: ExternalAudioEncoder {
    /// The bit rate for mono speech.
    public var bitRate: Int

    public init(bitRate: Int = 64_000) {
        self.bitRate = bitRate
    }

    /// The rates ADTS can name (its sampling-frequency index).
    public static let frequencyIndex: [Int: UInt8] = [
        96000: 0, 88200: 1, 64000: 2, 48000: 3, 44100: 4, 32000: 5, 24000: 6, 22050: 7, 16000: 8, 12000: 9,
        11025: 10, 8000: 11,
    ]

    public var sampleRates: [Int] { Self.frequencyIndex.keys.sorted() }

    /// Makes `aac` available to WarbleAudio's encoders, when libavcodec has its AAC encoder.
    @discardableResult
    public static func register() -> Bool {
        guard avcodec_find_encoder(AV_CODEC_ID_AAC) != nil else { return false }
        // libavcodec's own notes (its encoder's statistics) are not for our users; errors still show.
        av_log_set_level(AV_LOG_ERROR)
        ExternalAudioEncoders.register(AACEncoder(), for: .aac)
        return true
    }

    public func encode(_ samples: [Float], sampleRate: Int) throws -> Data {
        guard let index = Self.frequencyIndex[sampleRate] else {
            throw AACError("AAC cannot be written at \(sampleRate) Hz; it takes " + sampleRates.map(String.init).joined(separator: ", "))
        }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC) else { throw AACError("this libavcodec has no AAC encoder") }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        guard let context else { throw AACError("could not allocate the AAC encoder") }
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(sampleRate)
        context.pointee.bit_rate = Int64(bitRate)
        av_channel_layout_default(&context.pointee.ch_layout, 1)
        try check(avcodec_open2(context, codec, nil), "opening the AAC encoder")
        let frameSize = Int(context.pointee.frame_size)
        guard frameSize > 0 else { throw AACError("the AAC encoder has no frame size") }

        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let frame, let packet else { throw AACError("could not allocate an AAC frame") }
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        try check(av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout), "setting the frame's layout")
        try check(av_frame_get_buffer(frame, 0), "allocating the frame")

        var out = Data()
        func drain() throws {
            while true {
                let status = avcodec_receive_packet(context, packet)
                if status == averror(EAGAIN) || status == AVERROR_EOF_VALUE { return }
                try check(status, "encoding AAC")
                let size = Int(packet.pointee.size)
                out.append(Self.adtsHeader(payloadBytes: size, frequencyIndex: index))
                if let data = packet.pointee.data { out.append(data, count: size) }
                av_packet_unref(packet)
            }
        }
        var position = 0
        var pts: Int64 = 0
        while position < samples.count {
            try check(av_frame_make_writable(frame), "reusing the frame")
            let count = min(frameSize, samples.count - position)
            guard let plane = frame.pointee.data.0 else { throw AACError("the AAC frame has no buffer") }
            plane.withMemoryRebound(to: Float.self, capacity: frameSize) { buffer in
                for i in 0..<frameSize { buffer[i] = i < count ? samples[position + i] : 0 }
            }
            frame.pointee.nb_samples = Int32(frameSize)
            frame.pointee.pts = pts
            pts += Int64(frameSize)
            position += count
            try check(avcodec_send_frame(context, frame), "encoding AAC")
            try drain()
        }
        try check(avcodec_send_frame(context, nil), "finishing the AAC stream")
        try drain()
        return out
    }

    /// The 7-byte ADTS header of an AAC-LC mono frame with `payloadBytes` after it.
    static func adtsHeader(payloadBytes: Int, frequencyIndex: UInt8) -> Data {
        let length = payloadBytes + 7
        let profile: UInt8 = 1  // AAC LC (object type 2) − 1
        let channels: UInt8 = 1
        return Data([
            0xFF, 0xF1,
            profile << 6 | frequencyIndex << 2 | channels >> 2,
            (channels & 3) << 6 | UInt8((length >> 11) & 0x3),
            UInt8((length >> 3) & 0xFF),
            UInt8(length & 0x7) << 5 | 0x1F,
            0xFC,
        ])
    }

    private func check(_ status: Int32, _ doing: String) throws {
        guard status >= 0 else {
            var text = [CChar](repeating: 0, count: 256)
            av_strerror(status, &text, text.count)
            let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            throw AACError("\(doing) failed: \(String(decoding: bytes, as: UTF8.self))")
        }
    }
}

/// FFmpeg's AVERROR(e) for a POSIX error.
func averror(_ code: Int32) -> Int32 { -code }
/// FFmpeg's AVERROR_EOF (FFERRTAG('E','O','F',' ')).
let AVERROR_EOF_VALUE: Int32 = -Int32(bitPattern: UInt32(0x45) | UInt32(0x4F) << 8 | UInt32(0x46) << 16 | UInt32(0x20) << 24)

/// Why AAC could not be written.
public struct AACError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
