extension SentencePieceTokenizer {
    /// The ids of `text`, as Python `sentencepiece`'s `encode(text)` gives them (no BOS/EOS).
    public func encode(_ text: String) -> [Int] {
        encodePieces(text).map { Int($0.id) }
    }

    /// The pieces of `text` with their ids, as `encode(text, out_type=str)` gives the pieces: a run of
    /// unknown characters is one piece (its text), or one `<0xXX>` piece per byte with byte fallback.
    public func encodeAsPieces(_ text: String) -> [String] {
        encodePieces(text).map { String(decoding: $0.piece, as: UTF8.self) }
    }

    /// The normalized text as sentencepiece's normalizer writes it (spaces as U+2581).
    public func normalize(_ text: String) -> String {
        String(decoding: normalizer.normalize(text), as: UTF8.self)
    }

    /// sentencepiece_processor.cc's `Encode` and `PopulateSentencePieceText`.
    func encodePieces(_ text: String) -> [(piece: [UInt8], id: Int32)] {
        let normalized = normalizer.normalize(text)
        let segments: [(piece: [UInt8], id: Int32)] = normalized.withUnsafeBufferPointer { buffer in
            if let unigram {
                return unigram.encode(buffer).map { (Array(buffer[$0.range]), $0.id) }
            }
            guard let bpe else { return [] }
            return bpe.encode(buffer).map { ($0, pieceID($0)) }
        }
        var output: [(piece: [UInt8], id: Int32)] = []
        output.reserveCapacity(segments.count)
        var previousIsUnknown = false
        for (piece, id) in segments {
            let isUnknown = pieces[Int(id)].type == .unknown
            if isUnknown, trainerSpec.byteFallback {
                for byte in piece { output.append((Array(pieceStrings[Int(byteIDs[Int(byte)])].utf8), byteIDs[Int(byte)])) }
            } else if isUnknown, previousIsUnknown, let last = output.indices.last {
                output[last].piece += piece
            } else {
                output.append((piece, id))
            }
            previousIsUnknown = isUnknown
        }
        return output
    }
}
