/// Converts stored samples to Float. Integer PCM is scaled by 2^-(bits-1), so a round trip through
/// `WAVSampleEncoding` is exact.
enum WAVSampleDecoding {
    static func decode(
        _ format: WAVSampleFormat, from source: UnsafeRawPointer, stride: Int, count: Int,
        into out: UnsafeMutablePointer<Float>
    ) {
        var p = source
        switch format {
        case .uint8:
            for i in 0..<count {
                out[i] = (Float(p.load(as: UInt8.self)) - 128) * (1 / 128)
                p += stride
            }
        case .int16:
            for i in 0..<count {
                out[i] = Float(Int16(littleEndian: p.loadUnaligned(as: Int16.self))) * (1 / 32768)
                p += stride
            }
        case .int24:
            for i in 0..<count {
                let raw = Int32(p.load(fromByteOffset: 0, as: UInt8.self)) << 8
                    | Int32(p.load(fromByteOffset: 1, as: UInt8.self)) << 16
                    | Int32(p.load(fromByteOffset: 2, as: UInt8.self)) << 24
                out[i] = Float(raw >> 8) * (1 / 8_388_608)
                p += stride
            }
        case .int32:
            for i in 0..<count {
                out[i] = Float(Double(Int32(littleEndian: p.loadUnaligned(as: Int32.self))) * (1 / 2_147_483_648))
                p += stride
            }
        case .float32:
            for i in 0..<count {
                out[i] = Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)))
                p += stride
            }
        case .float64:
            for i in 0..<count {
                out[i] = Float(Double(bitPattern: UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))))
                p += stride
            }
        case .muLaw:
            for i in 0..<count {
                out[i] = G711.muLaw[Int(p.load(as: UInt8.self))]
                p += stride
            }
        case .aLaw:
            for i in 0..<count {
                out[i] = G711.aLaw[Int(p.load(as: UInt8.self))]
                p += stride
            }
        }
    }
}

/// ITU-T G.711 expansion tables, scaled to [-1, 1).
enum G711 {
    static let muLaw: [Float] = (0..<256).map { code in
        let u = ~UInt8(code)
        let exponent = Int((u >> 4) & 0x07)
        let mantissa = Int(u & 0x0F)
        let magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84
        return Float(u & 0x80 != 0 ? -magnitude : magnitude) / 32768
    }

    static let aLaw: [Float] = (0..<256).map { code in
        let a = UInt8(code) ^ 0x55
        let exponent = Int((a >> 4) & 0x07)
        let mantissa = Int(a & 0x0F)
        var magnitude = (mantissa << 4) + 8
        if exponent != 0 { magnitude = (magnitude + 0x100) << (exponent - 1) }
        return Float(a & 0x80 != 0 ? magnitude : -magnitude) / 32768
    }
}
