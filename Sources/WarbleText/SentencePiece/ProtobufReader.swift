// Hand-written, not swift-protobuf 1.39.0: it reads the few fields Warble needs of SentencePiece's ModelProto without protoc-generated code or a runtime library in WarbleText, every length checked against what remains (fuzz-model-files).

/// A reader of the protobuf wire format, just enough for SentencePiece's `ModelProto`: varints,
/// fixed 32/64-bit fields and length-delimited fields, with every length checked against the bytes
/// that remain, so that a damaged file gives an error and never reads outside the buffer.
struct ProtobufReader {
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case startGroup = 3
        case endGroup = 4
        case fixed32 = 5
    }

    private let bytes: [UInt8]
    private(set) var position: Int
    private let end: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        position = 0
        end = bytes.count
    }

    private init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }

    /// The next field's number and wire type.
    mutating func readTag() throws -> (field: UInt64, wire: WireType) {
        let offset = position
        let tag = try readVarint()
        let field = tag >> 3
        guard field != 0, let wire = WireType(rawValue: UInt8(tag & 7)) else {
            throw Self.damaged("an invalid field tag \(tag)", at: offset)
        }
        return (field, wire)
    }

    mutating func readVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            guard position < end else { throw Self.damaged("a varint that runs past the end", at: start) }
            let byte = bytes[position]
            position += 1
            if shift == 63, byte > 1 { throw Self.damaged("a varint longer than 64 bits", at: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw Self.damaged("a varint longer than 10 bytes", at: start) }
        }
    }

    /// An `int32` field: protobuf writes negative values as 10-byte varints; the low 32 bits are the value.
    mutating func readInt32() throws -> Int32 {
        Int32(truncatingIfNeeded: try readVarint())
    }

    mutating func readBool() throws -> Bool {
        try readVarint() != 0
    }

    mutating func readFixed32() throws -> UInt32 {
        guard end - position >= 4 else { throw Self.damaged("a 32-bit field that runs past the end", at: position) }
        var value: UInt32 = 0
        for k in 0..<4 { value |= UInt32(bytes[position + k]) << (8 * UInt32(k)) }
        position += 4
        return value
    }

    mutating func readFloat() throws -> Float {
        Float(bitPattern: try readFixed32())
    }

    /// The bytes of a length-delimited field.
    mutating func readBytes() throws -> ArraySlice<UInt8> {
        let range = try readLengthDelimitedRange()
        return bytes[range]
    }

    mutating func readString() throws -> String {
        String(decoding: try readBytes(), as: UTF8.self)
    }

    /// A reader over an embedded message.
    mutating func readMessage() throws -> ProtobufReader {
        ProtobufReader(bytes, range: try readLengthDelimitedRange())
    }

    private mutating func readLengthDelimitedRange() throws -> Range<Int> {
        let start = position
        let length = try readVarint()
        guard length <= UInt64(end - position) else {
            throw Self.damaged("a field of \(length) bytes where \(end - position) remain", at: start)
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    /// Skips a field that is not needed (or whose wire type is not the expected one, as protobuf does).
    mutating func skip(_ wire: WireType) throws {
        switch wire {
        case .varint: _ = try readVarint()
        case .fixed64:
            guard end - position >= 8 else { throw Self.damaged("a 64-bit field that runs past the end", at: position) }
            position += 8
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimitedRange()
        case .startGroup, .endGroup:
            throw Self.damaged("a group field (not used by SentencePiece)", at: position)
        }
    }

    static func damaged(_ what: String, at offset: Int) -> TextError {
        TextError(.tokenizerFile, "SentencePiece model is damaged: \(what) at byte \(offset)")
    }
}
