import Foundation
import Testing
import WarbleSpeech
@testable import WarbleModels

/// Reading a NeuTTS reference's codes: NumPy files as `np.save` writes them (every integer type,
/// shapes [F], [1, F], [1, 1, F]; versions 1 and 2), raw int32, and clear refusals.
@Suite struct NeuTTSReferenceCodesTests {
    /// An .npy file as NumPy writes it: magic, version, header padded to 64 bytes with a newline, data.
    static func npy(descr: String, shape: String, data: [UInt8], version: UInt8 = 1, fortran: Bool = false) -> Data {
        var header = "{'descr': '\(descr)', 'fortran_order': \(fortran ? "True" : "False"), 'shape': \(shape), }"
        let prefix = version == 1 ? 10 : 12
        while (prefix + header.utf8.count + 1) % 64 != 0 { header += " " }
        header += "\n"
        var bytes: [UInt8] = [0x93] + Array("NUMPY".utf8) + [version, 0]
        let length = header.utf8.count
        bytes += version == 1 ? [UInt8(length & 0xFF), UInt8(length >> 8)]
            : [UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), 0, 0]
        return Data(bytes + Array(header.utf8) + data)
    }

    static func littleEndian<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    }

    let codes = [0, 1, 65_535, 40_000, 7]

    @Test func readsEveryIntegerTypeAndShape() throws {
        let cases: [(String, [UInt8])] = [
            ("<i4", Self.littleEndian(codes.map(Int32.init))),
            ("<i8", Self.littleEndian(codes.map(Int64.init))),
            ("<u2", Self.littleEndian(codes.map(UInt16.init))),
            ("<u4", Self.littleEndian(codes.map(UInt32.init))),
        ]
        for (descr, data) in cases {
            for shape in ["(5,)", "(1, 5)", "(1, 1, 5)"] {
                #expect(try NeuTTSReferenceCodes.read(Self.npy(descr: descr, shape: shape, data: data), name: "c.npy") == codes,
                        "\(descr) \(shape)")
            }
        }
        #expect(try NeuTTSReferenceCodes.read(Self.npy(descr: "<i4", shape: "(5,)", data: Self.littleEndian(codes.map(Int32.init)),
                                                       version: 2), name: "c.npy") == codes)
        // Negative values keep their sign (and are then refused by the voice, not wrapped to codes).
        #expect(try NeuTTSReferenceCodes.read(Self.npy(descr: "<i2", shape: "(2,)", data: Self.littleEndian([Int16(-2), 3])), name: "c.npy")
                == [-2, 3])
    }

    @Test func readsRawInt32() throws {
        #expect(try NeuTTSReferenceCodes.read(Data(Self.littleEndian(codes.map(Int32.init))), name: "c.i32") == codes)
    }

    @Test func refusesWhatIsNotCodes() throws {
        func refused(_ data: Data, _ fragment: String) {
            #expect {
                _ = try NeuTTSReferenceCodes.read(data, name: "x")
            } throws: { error in
                (error as? ModelError)?.message.contains(fragment) ?? false
            }
        }
        let i4 = Self.littleEndian(codes.map(Int32.init))
        refused(Self.npy(descr: "<f4", shape: "(5,)", data: i4), "not a little-endian integer type")
        refused(Self.npy(descr: ">i4", shape: "(5,)", data: i4), "not a little-endian integer type")
        refused(Self.npy(descr: "<i4", shape: "(5,)", data: i4, fortran: true), "Fortran order")
        refused(Self.npy(descr: "<i4", shape: "(2, 5)", data: i4 + i4), "not [F], [1, F] or [1, 1, F]")
        refused(Self.npy(descr: "<i4", shape: "(6,)", data: i4), "holds 20 bytes for 6 values")
        // Shapes that would overflow a count, or claim more than a reference can hold, are refused before any arithmetic.
        refused(Self.npy(descr: "<i8", shape: "(1, 9223372036854775807)", data: i4), "with F up to")
        refused(Self.npy(descr: "<i8", shape: "(4611686018427387904, 4)", data: i4), "is not [F]")
        refused(Self.npy(descr: "<i4", shape: "(1, 1, 1, 5)", data: i4), "is not [F]")
        refused(Self.npy(descr: "<i4", shape: "(1, 99999999999999999999999)", data: i4), "does not read")
        refused(Self.npy(descr: "<i4", shape: "(-5,)", data: i4), "does not read")
        // A ")" before the "(" (found by fuzz-model-files; the slice trapped).
        refused(Self.npy(descr: "<i4", shape: ") (5,", data: i4), "no shape")
        refused(Data([0x93] + Array("NUMPY".utf8) + [1, 0, 200, 0]), "header is cut short")
        refused(Data(Array("PK\u{3}\u{4}rest".utf8)), "PyTorch file")
        refused(Data([1, 2, 3]), "not a multiple of 4")
        refused(Data(), "not a multiple of 4")
    }

    @Test func voiceChecksCodesAndTranscript() throws {
        let fine = Array(repeating: 12, count: 100)
        #expect(try NeuTTSVoice(codes: fine, transcript: "  Hello there. ").transcript == "Hello there.")
        #expect(throws: ModelError.self) { try NeuTTSVoice(codes: fine, transcript: " \n") }
        #expect(throws: ModelError.self) { try NeuTTSVoice(codes: Array(repeating: 1, count: 10), transcript: "Hi.") }
        #expect(throws: ModelError.self) { try NeuTTSVoice(codes: Array(repeating: 1, count: 1_501), transcript: "Hi.") }
        #expect(throws: ModelError.self) { try NeuTTSVoice(codes: fine + [65_536], transcript: "Hi.") }
        #expect(throws: ModelError.self) { try NeuTTSVoice(codes: fine + [-1], transcript: "Hi.") }
        let voice = try NeuTTSVoice(codes: fine, transcript: "Hi.")
        #expect(try NeuTTSVoice(voice.conditioning, voice: "v") == voice)
        #expect(throws: ModelError.self) { try NeuTTSVoice(.encoderOutputs([:]), voice: "v") }
    }

    @Test func kthLargestMatchesSorting() {
        var generator = SplitMix64(seed: 5)
        for count in [1, 7, 50, 1_000] {
            let values = (0..<count).map { _ in Float(generator.uniform() * 10).rounded() }  // many ties
            for k in Set([1, min(3, count), min(50, count), count]) {
                #expect(LogitMath.kthLargest(values, k) == values.sorted(by: >)[k - 1], "count \(count) k \(k)")
            }
        }
        #expect(LogitMath.kthLargest([1, -.infinity, 3, -.infinity], 3) == -.infinity)
    }
}
