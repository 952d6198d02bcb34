import Foundation

/// A SentencePiece tokenizer read from a `.spm` model (`ModelProto`), giving the same ids as Python
/// `sentencepiece`'s `encode` and `decode`: the model's normalizer, then the unigram or BPE
/// segmentation, runs of unknown characters as one `<unk>` (or their UTF-8 bytes as `<0xXX>` pieces when
/// the model has byte fallback).
public struct SentencePieceTokenizer: Sendable {
    public enum Algorithm: Sendable { case unigram, bpe }

    public let algorithm: Algorithm
    let pieces: [SentencePieceModelProto.Piece]
    let pieceStrings: [String]
    let trainerSpec: SentencePieceModelProto.TrainerSpec
    let normalizerSpec: SentencePieceModelProto.NormalizerSpec
    let normalizer: SentencePieceNormalizer
    let denormalizer: SentencePieceNormalizer?
    /// Normal, user-defined and unused pieces (sentencepiece's `pieces_`).
    let pieceTrie: PieceTrie
    /// Unknown, control and byte pieces (sentencepiece's `reserved_id_map_`), looked up first.
    let reserved: [[UInt8]: Int32]
    let unigram: SentencePieceUnigram?
    let bpe: SentencePieceBPE?
    /// The id of each `<0xXX>` piece when the model has byte fallback.
    let byteIDs: [Int32]
    let unknownID: Int32

    /// Loads a `.spm` file.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw TextError(.tokenizerFile, "cannot read \(url.path): \(error.localizedDescription)")
        }
        try self.init(modelData: data)
    }

    /// Parses a serialized SentencePiece `ModelProto`. A damaged or unsupported model throws a
    /// `TextError` of kind `.tokenizerFile` that says what was wrong.
    public init(modelData: Data) throws {
        let model = try SentencePieceModelProto(bytes: [UInt8](modelData))
        switch model.trainerSpec.modelType {
        case .unigram: algorithm = .unigram
        case .bpe: algorithm = .bpe
        case .word, .char:
            throw TextError(.tokenizerFile, "SentencePiece model type \(model.trainerSpec.modelType) is not supported (accepted: unigram, BPE)")
        }
        guard !model.pieces.isEmpty else {
            throw TextError(.tokenizerFile, "SentencePiece model has no pieces")
        }
        guard model.pieces.count < Int(Int32.max) else {
            throw TextError(.tokenizerFile, "SentencePiece model has too many pieces (\(model.pieces.count))")
        }

        // model_interface.cc's InitializePieces, with its checks.
        var trie = PieceTrie()
        var userDefined = PieceTrie()
        var normalPieces = Set<[UInt8]>()
        var reserved: [[UInt8]: Int32] = [:]
        var unknownID: Int32 = -1
        var byteIDs = [Int32](repeating: -1, count: 256)
        for (index, piece) in model.pieces.enumerated() {
            let id = Int32(index)
            let text = String(decoding: piece.piece, as: UTF8.self)
            guard !piece.piece.isEmpty else {
                throw TextError(.tokenizerFile, "SentencePiece model is damaged: piece \(index) is empty")
            }
            switch piece.type {
            case .normal, .userDefined, .unused:
                guard normalPieces.insert(piece.piece).inserted else {
                    throw TextError(.tokenizerFile, "SentencePiece model is damaged: piece '\(text)' is defined twice")
                }
                trie.insert(piece.piece, id: id)
                if piece.type == .userDefined { userDefined.insert(piece.piece, id: id) }
            case .unknown, .control, .byte:
                guard reserved[piece.piece] == nil else {
                    throw TextError(.tokenizerFile, "SentencePiece model is damaged: piece '\(text)' is defined twice")
                }
                reserved[piece.piece] = id
            }
            if piece.type == .unknown {
                guard unknownID < 0 else {
                    throw TextError(.tokenizerFile, "SentencePiece model is damaged: more than one unknown piece")
                }
                unknownID = id
            }
            if piece.type == .byte {
                guard model.trainerSpec.byteFallback else {
                    throw TextError(.tokenizerFile, "SentencePiece model is damaged: byte piece '\(text)' without byte_fallback")
                }
                guard let byte = Self.byteValue(piece.piece) else {
                    throw TextError(.tokenizerFile, "SentencePiece model is damaged: byte piece '\(text)' is not <0xXX>")
                }
                byteIDs[Int(byte)] = id
            }
        }
        guard unknownID >= 0 else {
            throw TextError(.tokenizerFile, "SentencePiece model is damaged: it defines no unknown piece")
        }
        if model.trainerSpec.byteFallback, byteIDs.contains(-1) {
            throw TextError(.tokenizerFile, "SentencePiece model is damaged: byte_fallback is set but not all 256 byte pieces are there")
        }
        if algorithm == .unigram, trie.isEmpty {
            throw TextError(.tokenizerFile, "SentencePiece model is damaged: it has no normal pieces")
        }
        pieces = model.pieces
        pieceStrings = model.pieces.map { String(decoding: $0.piece, as: UTF8.self) }
        trainerSpec = model.trainerSpec
        normalizerSpec = model.normalizerSpec
        self.unknownID = unknownID
        self.byteIDs = byteIDs
        self.reserved = reserved
        pieceTrie = trie
        normalizer = try SentencePieceNormalizer(
            spec: model.normalizerSpec, treatWhitespaceAsSuffix: model.trainerSpec.treatWhitespaceAsSuffix,
            userDefined: userDefined)
        if let spec = model.denormalizerSpec, !spec.precompiledCharsmap.isEmpty {
            denormalizer = try SentencePieceNormalizer(spec: spec)
        } else {
            denormalizer = nil
        }
        switch algorithm {
        case .unigram:
            unigram = SentencePieceUnigram(pieces: model.pieces, trie: trie, unknownID: unknownID)
            bpe = nil
        case .bpe:
            unigram = nil
            bpe = SentencePieceBPE(pieces: trie, userDefined: userDefined, scores: model.pieces.map(\.score),
                                   types: model.pieces.map(\.type))
        }
    }

    /// The number of pieces (ids run from 0 to this minus one).
    public var vocabularySize: Int { pieces.count }

    /// The id of `<unk>`.
    public var unknownTokenID: Int { Int(unknownID) }
    /// The ids the trainer gave `<s>`, `</s>` and `<pad>`, or nil when the model has none.
    public var bosTokenID: Int? { trainerSpec.bosID >= 0 ? Int(trainerSpec.bosID) : nil }
    public var eosTokenID: Int? { trainerSpec.eosID >= 0 ? Int(trainerSpec.eosID) : nil }
    public var padTokenID: Int? { trainerSpec.padID >= 0 ? Int(trainerSpec.padID) : nil }

    /// Whether unknown characters are written as their UTF-8 bytes.
    public var hasByteFallback: Bool { trainerSpec.byteFallback }

    /// sentencepiece's `PieceToId`: the id of a piece, the unknown id for a string that is none.
    public func id(for piece: String) -> Int {
        Int(pieceID([UInt8](piece.utf8)))
    }

    /// The piece of an id, or nil outside the vocabulary.
    public func piece(for id: Int) -> String? {
        pieceStrings.indices.contains(id) ? pieceStrings[id] : nil
    }

    func pieceID(_ bytes: [UInt8]) -> Int32 {
        if let id = reserved[bytes] { return id }
        return bytes.withUnsafeBufferPointer { pieceTrie.lookup($0, 0..<$0.count) } ?? unknownID
    }

    static func byteValue(_ piece: [UInt8]) -> UInt8? {
        // Exactly "<0x" two upper-case hex digits ">", as ByteToPiece writes it.
        guard piece.count == 6, piece[0] == 0x3C, piece[1] == 0x30, piece[2] == 0x78, piece[5] == 0x3E else { return nil }
        func digit(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x41 + 10
            default: return nil
            }
        }
        guard let high = digit(piece[3]), let low = digit(piece[4]) else { return nil }
        return high << 4 | low
    }
}
