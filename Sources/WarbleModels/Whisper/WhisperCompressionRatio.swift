import WarbleSpeech
import CSystemZlib

/// faster-whisper's repetition measure: UTF-8 length of the text over its zlib-compressed length
/// (default level, as Python's `zlib.compress`).
enum WhisperCompressionRatio {
    static func of(_ text: String) -> Double {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return 0 }
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &length, input.baseAddress, uLong(input.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK, length > 0 else { return 0 }
        return Double(bytes.count) / Double(length)
    }
}
