/// The parts of SentencePiece's `ModelProto` (sentencepiece_model.proto) that encoding and decoding
/// use, read from the `.spm` bytes by `ProtobufReader`. Fields absent from the file keep the proto's
/// defaults; a field given twice keeps the last value, and a message given twice is merged, as protobuf does.
struct SentencePieceModelProto: Sendable {
    /// `ModelProto.SentencePiece.Type`.
    enum PieceType: Int32, Sendable {
        case normal = 1
        case unknown = 2
        case control = 3
        case userDefined = 4
        case unused = 5
        case byte = 6
    }

    struct Piece: Sendable {
        var piece: [UInt8] = []
        var score: Float = 0
        var type: PieceType = .normal
    }

    /// `TrainerSpec.ModelType`.
    enum ModelType: Int32, Sendable {
        case unigram = 1
        case bpe = 2
        case word = 3
        case char = 4
    }

    struct TrainerSpec: Sendable {
        var modelType: ModelType = .unigram
        var vocabSize: Int32 = 8000
        var treatWhitespaceAsSuffix = false
        var allowWhitespaceOnlyPieces = false
        var byteFallback = false
        var unkID: Int32 = 0
        var bosID: Int32 = 1
        var eosID: Int32 = 2
        var padID: Int32 = -1
        var unkPiece = "<unk>"
        var bosPiece = "<s>"
        var eosPiece = "</s>"
        var padPiece = "<pad>"
        /// What `<unk>` decodes to (U+2047 between spaces unless the file says otherwise).
        var unkSurface = " \u{2047} "
    }

    struct NormalizerSpec: Sendable {
        var name = ""
        var precompiledCharsmap: [UInt8] = []
        var addDummyPrefix = true
        var removeExtraWhitespaces = true
        var escapeWhitespaces = true
    }

    var pieces: [Piece] = []
    var trainerSpec = TrainerSpec()
    var normalizerSpec = NormalizerSpec()
    var denormalizerSpec: NormalizerSpec?

    init(bytes: [UInt8]) throws {
        var reader = ProtobufReader(bytes)
        while !reader.isAtEnd {
            let (field, wire) = try reader.readTag()
            switch (field, wire) {
            case (1, .lengthDelimited):
                var message = try reader.readMessage()
                pieces.append(try Self.readPiece(&message))
            case (2, .lengthDelimited):
                var message = try reader.readMessage()
                try Self.readTrainerSpec(&message, into: &trainerSpec)
            case (3, .lengthDelimited):
                var message = try reader.readMessage()
                try Self.readNormalizerSpec(&message, into: &normalizerSpec)
            case (5, .lengthDelimited):
                var message = try reader.readMessage()
                var spec = denormalizerSpec ?? NormalizerSpec()
                try Self.readNormalizerSpec(&message, into: &spec)
                denormalizerSpec = spec
            default:
                try reader.skip(wire)
            }
        }
    }

    private static func readPiece(_ reader: inout ProtobufReader) throws -> Piece {
        var piece = Piece()
        while !reader.isAtEnd {
            let (field, wire) = try reader.readTag()
            switch (field, wire) {
            case (1, .lengthDelimited): piece.piece = Array(try reader.readBytes())
            case (2, .fixed32): piece.score = try reader.readFloat()
            case (3, .varint):
                let raw = try reader.readInt32()
                // An enum value the proto does not define is kept as an unknown field: the default stays.
                if let type = PieceType(rawValue: raw) { piece.type = type }
            default: try reader.skip(wire)
            }
        }
        return piece
    }

    private static func readTrainerSpec(_ reader: inout ProtobufReader, into spec: inout TrainerSpec) throws {
        while !reader.isAtEnd {
            let (field, wire) = try reader.readTag()
            switch (field, wire) {
            case (3, .varint):
                let raw = try reader.readInt32()
                if let type = ModelType(rawValue: raw) { spec.modelType = type }
            case (4, .varint): spec.vocabSize = try reader.readInt32()
            case (24, .varint): spec.treatWhitespaceAsSuffix = try reader.readBool()
            case (26, .varint): spec.allowWhitespaceOnlyPieces = try reader.readBool()
            case (35, .varint): spec.byteFallback = try reader.readBool()
            case (40, .varint): spec.unkID = try reader.readInt32()
            case (41, .varint): spec.bosID = try reader.readInt32()
            case (42, .varint): spec.eosID = try reader.readInt32()
            case (43, .varint): spec.padID = try reader.readInt32()
            case (44, .lengthDelimited): spec.unkSurface = try reader.readString()
            case (45, .lengthDelimited): spec.unkPiece = try reader.readString()
            case (46, .lengthDelimited): spec.bosPiece = try reader.readString()
            case (47, .lengthDelimited): spec.eosPiece = try reader.readString()
            case (48, .lengthDelimited): spec.padPiece = try reader.readString()
            default: try reader.skip(wire)
            }
        }
    }

    private static func readNormalizerSpec(_ reader: inout ProtobufReader, into spec: inout NormalizerSpec) throws {
        while !reader.isAtEnd {
            let (field, wire) = try reader.readTag()
            switch (field, wire) {
            case (1, .lengthDelimited): spec.name = try reader.readString()
            case (2, .lengthDelimited): spec.precompiledCharsmap = Array(try reader.readBytes())
            case (3, .varint): spec.addDummyPrefix = try reader.readBool()
            case (4, .varint): spec.removeExtraWhitespaces = try reader.readBool()
            case (5, .varint): spec.escapeWhitespaces = try reader.readBool()
            default: try reader.skip(wire)
            }
        }
    }
}
