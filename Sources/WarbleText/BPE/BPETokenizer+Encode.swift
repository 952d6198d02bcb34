extension BPETokenizer {
    /// Encodes text to ids. Added tokens in the text are always matched; `addSpecialTokens` applies the
    /// post-processor template (such as BOS/EOS).
    public func encode(_ text: String, addSpecialTokens: Bool = true) -> [Int] {
        var ids: [Int32] = []
        ids.reserveCapacity(text.utf8.count / 3 + 8)
        var state = EncodeState()
        var bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            if rawAdded.isEmpty {
                encodeSegment(buffer, &ids, &state)
                return
            }
            for piece in rawAdded.split(buffer) {
                switch piece {
                case .token(let id): ids.append(Int32(id))
                case .text(let range): encodeSegment(UnsafeBufferPointer(rebasing: buffer[range]), &ids, &state)
                }
            }
        }
        bytes.removeAll()
        let result = addSpecialTokens ? postProcessor.apply(ids) : ids
        return result.map(Int.init)
    }

    /// Mutable buffers reused across the pieces of one `encode` call.
    struct EncodeState {
        var pieces: [Range<Int>] = []
        var scratch: [Range<Int>] = []
        var symbols: [Int32] = []
    }

    /// Normalizes one segment between raw added tokens, matches normalized added tokens, and encodes the rest.
    private func encodeSegment(_ segment: UnsafeBufferPointer<UInt8>, _ ids: inout [Int32], _ state: inout EncodeState) {
        guard let normalizer else {
            // No normalizer: the text is its own normalized form, and normalized added tokens are matched in it
            // (GPT-2's `<|endoftext|>` is one).
            encodeMatchingNormalizedAdded(segment, &ids, &state)
            return
        }
        let normalized = Array(normalizer.apply(String(decoding: segment, as: UTF8.self)).utf8)
        normalized.withUnsafeBufferPointer { encodeMatchingNormalizedAdded($0, &ids, &state) }
    }

    /// Matches the normalized added tokens in normalized text, and encodes the text between them.
    private func encodeMatchingNormalizedAdded(_ buffer: UnsafeBufferPointer<UInt8>, _ ids: inout [Int32], _ state: inout EncodeState) {
        if normalizedAdded.isEmpty {
            encodeNormalized(buffer, &ids, &state)
            return
        }
        for piece in normalizedAdded.split(buffer) {
            switch piece {
            case .token(let id): ids.append(Int32(id))
            case .text(let range): encodeNormalized(UnsafeBufferPointer(rebasing: buffer[range]), &ids, &state)
            }
        }
    }

    private func encodeNormalized(_ segment: UnsafeBufferPointer<UInt8>, _ ids: inout [Int32], _ state: inout EncodeState) {
        if segment.isEmpty { return }
        var bytes = Array(segment)
        state.pieces.removeAll(keepingCapacity: true)
        state.pieces.append(0..<bytes.count)
        preTokenizer.apply(&bytes, &state.pieces, scratch: &state.scratch)
        bytes.withUnsafeBufferPointer { encodePieces($0, &ids, &state) }
    }

    private func encodePieces(_ buffer: UnsafeBufferPointer<UInt8>, _ ids: inout [Int32], _ state: inout EncodeState) {
        for range in state.pieces {
            let piece = UnsafeBufferPointer(rebasing: buffer[range])
            let key = Array(piece)
            if let cached = cache.ids(for: key) {
                ids.append(contentsOf: cached)
                continue
            }
            let start = ids.count
            model.encode(piece, into: &ids, symbols: &state.symbols)
            cache.store(Array(ids[start...]), for: key)
        }
    }

    /// Decodes ids to text, undoing the byte-level mapping; invalid UTF-8 becomes U+FFFD.
    /// Unknown ids are ignored, as in Hugging Face `tokenizers`.
    public func decode(_ ids: [Int], skipSpecialTokens: Bool = false) -> String {
        if !decodesBytes {
            return ids.compactMap { id -> String? in
                if skipSpecialTokens, let added = addedByID[Int32(truncatingIfNeeded: id)], added.special { return nil }
                return token(for: id)
            }.joined(separator: " ")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ids.count * 4)
        for id in ids {
            if let added = addedByID[Int32(truncatingIfNeeded: id)] {
                if skipSpecialTokens, added.special { continue }
                bytes += ByteLevelAlphabet.decode(added.content)
            } else if id >= 0, id < model.tokens.count, let token = model.tokens[id] {
                bytes += ByteLevelAlphabet.decode(token)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
