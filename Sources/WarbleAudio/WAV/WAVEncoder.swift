import Foundation

/// Writes WAV files: integer PCM (8/16/24/32-bit) or float (32/64-bit). Files with more than two
/// channels use WAVE_FORMAT_EXTENSIBLE; others the plain PCM / IEEE-float header every reader knows.
/// Float samples are clipped to [-1, 1] and scaled by 2^(bits-1) for integer formats (the inverse of
/// `WAVDecoder`, so integer round trips are exact).
public struct WAVEncoder: Sendable {
    public let sampleFormat: WAVSampleFormat

    public init(sampleFormat: WAVSampleFormat = .int16) throws(WAVError) {
        guard sampleFormat.isEncodable else { throw .unencodableFormat(sampleFormat) }
        self.sampleFormat = sampleFormat
    }

    /// A complete file.
    public func encode(_ buffer: AudioBuffer) throws(WAVError) -> Data {
        let payload = buffer.frameCount * buffer.channelCount * sampleFormat.bytesPerSample
        var data = try header(sampleRate: buffer.sampleRate, channelCount: buffer.channelCount, dataByteCount: payload)
        data.append(encodeSamples(buffer))
        if payload & 1 == 1 { data.append(0) }
        return data
    }

    /// Writes a complete file.
    public func write(_ buffer: AudioBuffer, to url: URL) throws(WAVError) {
        let data = try encode(buffer)
        do {
            try OutputFile.open(url.path).write(contentsOf: data)
        } catch let error as OutputFile.OpenError {
            throw .io(path: url.path, message: error.reason)
        } catch {
            throw .io(path: url.path, message: "cannot write: \(error.localizedDescription)")
        }
    }

    /// The header (RIFF, fmt, data chunk header). `dataByteCount` nil writes the streaming form,
    /// whose RIFF and data sizes are 0xFFFFFFFF ("unknown, read to the end").
    public func header(sampleRate: Int, channelCount: Int, dataByteCount: Int?) throws(WAVError) -> Data {
        let extensible = channelCount > 2
        let fmtSize = extensible ? 40 : 16
        let riffSize: UInt32
        let dataSize: UInt32
        if let count = dataByteCount {
            let total = 4 + (8 + fmtSize) + 8 + count + (count & 1)
            guard total <= Int(UInt32.max) else { throw .tooLarge(bytes: count) }
            riffSize = UInt32(total)
            dataSize = UInt32(count)
        } else {
            riffSize = 0xFFFF_FFFF
            dataSize = 0xFFFF_FFFF
        }
        let tag = sampleFormat.isFloat ? WAVFormatChunk.floatTag : WAVFormatChunk.pcmTag
        let blockAlign = channelCount * sampleFormat.bytesPerSample
        var h = Data(capacity: 20 + fmtSize + 8)
        h.append(contentsOf: Array("RIFF".utf8)); h.appendLE(riffSize)
        h.append(contentsOf: Array("WAVE".utf8))
        h.append(contentsOf: Array("fmt ".utf8)); h.appendLE(UInt32(fmtSize))
        h.appendLE(extensible ? WAVFormatChunk.extensibleTag : tag)
        h.appendLE(UInt16(clamping: channelCount))
        h.appendLE(UInt32(clamping: sampleRate))
        h.appendLE(UInt32(clamping: sampleRate * blockAlign))
        h.appendLE(UInt16(clamping: blockAlign))
        h.appendLE(UInt16(sampleFormat.bitsPerSample))
        if extensible {
            h.appendLE(UInt16(22))
            h.appendLE(UInt16(sampleFormat.bitsPerSample))
            h.appendLE(UInt32(0))  // no speaker positions claimed
            h.appendLE(tag)
            h.append(contentsOf: WAVFormatChunk.guidTail)
        }
        h.append(contentsOf: Array("data".utf8)); h.appendLE(dataSize)
        return h
    }

    /// The samples of `buffer`, interleaved and encoded (a data chunk's payload).
    public func encodeSamples(_ buffer: AudioBuffer) -> Data {
        let width = sampleFormat.bytesPerSample
        let channels = buffer.channelCount
        let frames = buffer.frameCount
        var data = Data(count: frames * channels * width)
        data.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            for c in 0..<channels {
                buffer.channels[c].withUnsafeBufferPointer { src in
                    WAVSampleEncoding.encode(
                        src, as: sampleFormat, into: base + c * width, stride: channels * width)
                }
            }
        }
        return data
    }
}

enum WAVSampleEncoding {
    static func encode(_ src: UnsafeBufferPointer<Float>, as format: WAVSampleFormat, into dest: UnsafeMutableRawPointer, stride: Int) {
        var p = dest
        switch format {
        case .uint8:
            for x in src {
                p.storeBytes(of: UInt8(clamping: Int(quantize(x, scale: 128)) + 128), as: UInt8.self)
                p += stride
            }
        case .int16:
            for x in src {
                p.storeBytes(of: Int16(quantize(x, scale: 32768)).littleEndian, toByteOffset: 0, as: Int16.self)
                p += stride
            }
        case .int24:
            for x in src {
                let v = Int32(quantize(x, scale: 8_388_608))
                p.storeBytes(of: UInt8(truncatingIfNeeded: v), as: UInt8.self)
                p.storeBytes(of: UInt8(truncatingIfNeeded: v >> 8), toByteOffset: 1, as: UInt8.self)
                p.storeBytes(of: UInt8(truncatingIfNeeded: v >> 16), toByteOffset: 2, as: UInt8.self)
                p += stride
            }
        case .int32:
            for x in src {
                p.storeBytes(of: Int32(quantize(x, scale: 2_147_483_648)).littleEndian, toByteOffset: 0, as: Int32.self)
                p += stride
            }
        case .float32:
            for x in src {
                p.storeBytes(of: x.bitPattern.littleEndian, toByteOffset: 0, as: UInt32.self)
                p += stride
            }
        case .float64:
            for x in src {
                p.storeBytes(of: Double(x).bitPattern.littleEndian, toByteOffset: 0, as: UInt64.self)
                p += stride
            }
        case .muLaw, .aLaw:
            preconditionFailure("WAVEncoder.init rejects \(format)")
        }
    }

    /// Rounds `x · scale` to the nearest integer in [-scale, scale - 1]; NaN becomes 0.
    @inline(__always)
    static func quantize(_ x: Float, scale: Double) -> Int64 {
        guard !x.isNaN else { return 0 }
        let v = (Double(x) * scale).rounded()
        return Int64(min(max(v, -scale), scale - 1))
    }
}

extension Data {
    mutating func appendLE(_ value: UInt16) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
    mutating func appendLE(_ value: UInt32) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
}
