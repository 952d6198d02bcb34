extension SentencePieceTokenizer {
    /// The text of `ids`, as Python `sentencepiece`'s `decode(ids)`: control pieces dropped, `<unk>` as
    /// the model's unknown surface (" ⁇ "), runs of byte pieces read as UTF-8 (a byte that is not part of a
    /// well-formed character as U+FFFD), U+2581 as a space and the leading space of the first piece
    /// dropped (every leading one when the model removes extra whitespace), then the denormalizer if the
    /// model has one. An id outside the vocabulary throws.
    public func decode(_ ids: [Int]) throws -> String {
        var pieceTexts: [[UInt8]] = []
        pieceTexts.reserveCapacity(ids.count)
        for id in ids {
            guard pieces.indices.contains(id) else {
                throw TextError(.unknownToken, "id \(id) is outside the SentencePiece vocabulary (0..<\(pieces.count))")
            }
            pieceTexts.append(pieces[id].piece)
        }
        return decode(pieceBytes: pieceTexts)
    }

    /// The text of `pieces`, as Python `sentencepiece`'s `decode_pieces(pieces)`: each piece looked up
    /// (PieceToId); one that is not in the vocabulary is written as it is.
    public func decode(pieces: [String]) -> String {
        decode(pieceBytes: pieces.map { Array($0.utf8) })
    }

    func decode(pieceBytes pieceTexts: [[UInt8]]) -> String {
        var text: [UInt8] = []
        var bytes: [UInt8] = []
        var expectsLeadingSpace = true
        var leadingSpaceSeen = false
        let space = SentencePieceNormalizer.spaceSymbol

        func flushBytes() {
            guard !bytes.isEmpty else { return }
            bytes.withUnsafeBufferPointer { buffer in
                var offset = 0
                while offset < buffer.count {
                    let (valid, length) = UTF8Scalar.decode(buffer, offset)
                    if valid { text += buffer[offset..<(offset + length)] } else { text += [0xEF, 0xBF, 0xBD] }
                    offset += length
                }
            }
            bytes.removeAll(keepingCapacity: true)
        }

        for pieceBytes in pieceTexts {
            // As sentencepiece does, the piece's text is looked up again (PieceToId).
            let lookedUp = Int(pieceID(pieceBytes))
            let type = pieces[lookedUp].type
            if type == .byte, let byte = Self.byteValue(pieces[lookedUp].piece) {
                bytes.append(byte)
                continue
            }
            flushBytes()
            if leadingSpaceSeen || !text.isEmpty { expectsLeadingSpace = false }
            switch type {
            case .control:
                leadingSpaceSeen = false
            case .unknown:
                text += pieces[lookedUp].piece == pieceBytes ? Array(trainerSpec.unkSurface.utf8) : pieceBytes
                leadingSpaceSeen = false
            default:
                var piece = pieceBytes[...]
                var hasLeadingSpace = false
                if expectsLeadingSpace, normalizerSpec.addDummyPrefix || normalizerSpec.removeExtraWhitespaces {
                    if piece.starts(with: space) {
                        piece = piece.dropFirst(space.count)
                        hasLeadingSpace = true
                    }
                    if normalizerSpec.removeExtraWhitespaces { hasLeadingSpace = false }
                }
                text += Self.replacingSpaceSymbols(piece)
                leadingSpaceSeen = hasLeadingSpace
            }
        }
        flushBytes()
        if let denormalizer {
            text = text.withUnsafeBufferPointer { denormalizer.normalize($0) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func replacingSpaceSymbols(_ piece: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(piece.count)
        var i = piece.startIndex
        while i < piece.endIndex {
            if piece[i] == 0xE2, i + 2 < piece.endIndex, piece[i + 1] == 0x96, piece[i + 2] == 0x81 {
                output.append(0x20)
                i += 3
            } else {
                output.append(piece[i])
                i += 1
            }
        }
        return output
    }
}
