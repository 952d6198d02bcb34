import Foundation
import WarbleSpeech

/// A NeuTTS voice: a reference clip as NeuCodec codes (50 Hz) and what the clip says
/// (`.referenceCodes` in the voice profile).
public struct NeuTTSVoice: Sendable, Equatable {
    /// At most 30 s of reference (1,500 codes): longer ones leave too little of the context to speak.
    public static let maximumCodes = 1_500
    public static let minimumCodes = 25

    public var codes: [Int]
    public var transcript: String

    public init(codes: [Int], transcript: String) throws {
        let text = transcript.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw ModelError(.badInput, "a NeuTTS voice needs the transcript of its reference (what the clip says): give --transcript TEXT")
        }
        guard codes.count >= Self.minimumCodes, codes.count <= Self.maximumCodes else {
            throw ModelError(.badInput, String(format: "the reference holds %d codes (%.1f s); NeuTTS takes %d–%d (0.5–30 s at 50 codes a second)",
                                               codes.count, Double(codes.count) / 50, Self.minimumCodes, Self.maximumCodes))
        }
        if let bad = codes.first(where: { !NeuCodecDecoder.codes.contains($0) }) {
            throw ModelError(.badInput, "the reference's codes must be NeuCodec codes (0–65535); it holds \(bad)")
        }
        self.codes = codes
        self.transcript = text
    }

    init(_ conditioning: VoiceConditioning, voice: String) throws {
        guard case .referenceCodes(let codes, let transcript) = conditioning else {
            throw ModelError(.badInput, "voice '\(voice)' holds \(conditioning.kind), not NeuTTS's reference codes: add it again with "
                + "`warble voice add NAME --model neutts --codes FILE --transcript TEXT`")
        }
        try self.init(codes: codes, transcript: transcript)
    }

    public var conditioning: VoiceConditioning { .referenceCodes(codes: codes, transcript: transcript) }
}

/// Reads a reference's codes from a file: NumPy `.npy` (any integer type, shape [F], [1, F] or
/// [1, 1, F], C order: what `np.save` writes of the authors' codes), or raw little-endian int32.
/// The authors' own `.pt` files (torch.save) are refused with the line that converts them.
public enum NeuTTSReferenceCodes {
    public static func read(_ data: Data, name: String) throws -> [Int] {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0x93] + Array("NUMPY".utf8)) { return try npy(bytes, name: name) }
        if bytes.starts(with: Array("PK\u{3}\u{4}".utf8)) {
            throw ModelError(.badInput, "\(name) is a PyTorch file (torch.save); save its codes with NumPy first: python -c \"import "
                + "torch, numpy; numpy.save('codes.npy', torch.load('\(name)').numpy().astype('int32'))\"")
        }
        guard !bytes.isEmpty, bytes.count % 4 == 0 else {
            throw ModelError(.badInput, "\(name) is neither a .npy file nor raw int32 codes (\(bytes.count) bytes is not a multiple of 4)")
        }
        return stride(from: 0, to: bytes.count, by: 4).map { i in
            Int(Int32(bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24))
        }
    }

    static func npy(_ bytes: [UInt8], name: String) throws -> [Int] {
        func bad(_ why: String) -> ModelError { ModelError(.badInput, "\(name) is not a usable .npy file of codes: \(why)") }
        guard bytes.count >= 10 else { throw bad("it is cut short") }
        let major = bytes[6]
        let headerStart = major == 1 ? 10 : 12
        guard major >= 1, major <= 3, bytes.count >= headerStart else { throw bad("version \(major) is unknown") }
        let headerLength = major == 1 ? Int(bytes[8]) | Int(bytes[9]) << 8
            : Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        guard headerLength <= 65_536, bytes.count >= headerStart + headerLength else { throw bad("its header is cut short") }
        let header = String(decoding: bytes[headerStart..<(headerStart + headerLength)], as: UTF8.self)
        func field(_ key: String) -> String? {
            guard let range = header.range(of: "'\(key)':") else { return nil }
            return String(header[range.upperBound...]).trimmingCharacters(in: .whitespaces)
        }
        guard let descr = field("descr").flatMap({ $0.split(separator: "'").first.map(String.init) }) else { throw bad("no dtype") }
        guard field("fortran_order")?.hasPrefix("False") ?? false else { throw bad("it is in Fortran order") }
        guard let shapeText = field("shape"), let open = shapeText.firstIndex(of: "("),
              let close = shapeText[open...].firstIndex(of: ")") else {
            throw bad("no shape")
        }
        let dimensions = shapeText[shapeText.index(after: open)..<close].split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let shape = dimensions.compactMap { Int($0) }.filter { $0 >= 0 }
        guard shape.count == dimensions.count else { throw bad("its shape (\(dimensions.joined(separator: ", "))) does not read") }
        guard !shape.isEmpty, shape.count <= 3, shape.dropLast().allSatisfy({ $0 == 1 }), let count = shape.last,
              count <= NeuTTSVoice.maximumCodes * 64 else {
            throw bad("its shape \(shape) is not [F], [1, F] or [1, 1, F] with F up to \(NeuTTSVoice.maximumCodes * 64)")
        }
        let sizes: [String: Int] = ["i1": 1, "u1": 1, "i2": 2, "u2": 2, "i4": 4, "u4": 4, "i8": 8, "u8": 8]
        let kind = String(descr.dropFirst())
        guard let size = sizes[kind], descr.first == "<" || descr.first == "|" else {
            throw bad("its dtype \(descr) is not a little-endian integer type")
        }
        let data = bytes[(headerStart + headerLength)...]
        guard data.count == count * size else { throw bad("it holds \(data.count) bytes for \(count) values of \(size) bytes") }
        let base = data.startIndex
        return (0..<count).map { i in
            var value: UInt64 = 0
            for b in 0..<size { value |= UInt64(data[base + i * size + b]) << (8 * UInt64(b)) }
            if kind.hasPrefix("i"), size < 8, value & (1 << (8 * UInt64(size) - 1)) != 0 { value |= ~0 << (8 * UInt64(size)) }
            return Int(truncatingIfNeeded: value)
        }
    }
}
