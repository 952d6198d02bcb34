/// How a `Split` pre-tokenizer treats the matches of its pattern (Hugging Face's `SplitDelimiterBehavior`).
enum SplitBehavior: String, Sendable {
    case removed = "Removed"
    case isolated = "Isolated"
    case mergedWithPrevious = "MergedWithPrevious"
    case mergedWithNext = "MergedWithNext"
    case contiguous = "Contiguous"
}

/// The pre-tokenizers byte-level BPE files declare. Pieces are byte ranges of one UTF-8 buffer.
indirect enum PreTokenizer: Sendable {
    /// `ByteLevel`: optional GPT-2 split; the byte-to-character mapping itself is folded into the model.
    case byteLevel(addPrefixSpace: Bool, useRegex: Bool)
    case split(any PatternMatcher, SplitBehavior, invert: Bool)
    case sequence([PreTokenizer])

    var hasByteLevel: Bool {
        switch self {
        case .byteLevel: return true
        case .split: return false
        case .sequence(let steps): return steps.contains { $0.hasByteLevel }
        }
    }

    /// Splits every piece in `pieces` (replacing them). A ByteLevel step with `add_prefix_space` puts a space
    /// in front of each piece that lacks one, as Hugging Face does, which rewrites `bytes`.
    func apply(_ bytes: inout [UInt8], _ pieces: inout [Range<Int>], scratch: inout [Range<Int>]) {
        switch self {
        case .byteLevel(let addPrefixSpace, let useRegex):
            if addPrefixSpace { Self.prefixSpaces(&bytes, &pieces) }
            guard useRegex else { return }
            bytes.withUnsafeBufferPointer { Self.split($0, &pieces, &scratch, GPT2Pattern(), .isolated, invert: false) }
        case .split(let pattern, let behavior, let invert):
            bytes.withUnsafeBufferPointer { Self.split($0, &pieces, &scratch, pattern, behavior, invert: invert) }
        case .sequence(let steps):
            for step in steps { step.apply(&bytes, &pieces, scratch: &scratch) }
        }
    }

    private static func prefixSpaces(_ bytes: inout [UInt8], _ pieces: inout [Range<Int>]) {
        guard pieces.contains(where: { bytes[$0.lowerBound] != 0x20 }) else { return }
        var rebuilt: [UInt8] = []
        rebuilt.reserveCapacity(bytes.count + pieces.count)
        for k in pieces.indices {
            let piece = pieces[k]
            let start = rebuilt.count
            if bytes[piece.lowerBound] != 0x20 { rebuilt.append(0x20) }
            rebuilt.append(contentsOf: bytes[piece])
            pieces[k] = start..<rebuilt.count
        }
        bytes = rebuilt
    }

    private static func split(
        _ bytes: UnsafeBufferPointer<UInt8>, _ pieces: inout [Range<Int>], _ scratch: inout [Range<Int>],
        _ pattern: some PatternMatcher, _ behavior: SplitBehavior, invert: Bool
    ) {
        var result: [Range<Int>] = []
        result.reserveCapacity(pieces.count * 2)
        for piece in pieces {
            scratch.removeAll(keepingCapacity: true)
            pattern.matches(in: bytes, piece, into: &scratch)
            if behavior == .isolated, !invert, scratch.first?.lowerBound == piece.lowerBound,
                scratch.last?.upperBound == piece.upperBound, isTiling(scratch)
            {
                result.append(contentsOf: scratch)  // fast path: the matches tile the piece
                continue
            }
            applyBehavior(piece, scratch, behavior, invert: invert, into: &result)
        }
        pieces = result
    }

    private static func isTiling(_ ranges: [Range<Int>]) -> Bool {
        for k in ranges.indices.dropFirst() where ranges[k].lowerBound != ranges[k - 1].upperBound { return false }
        return true
    }

    private static func applyBehavior(
        _ piece: Range<Int>, _ matches: [Range<Int>], _ behavior: SplitBehavior, invert: Bool,
        into result: inout [Range<Int>]
    ) {
        var marked: [(Range<Int>, Bool)] = []
        var position = piece.lowerBound
        for match in matches {
            if position < match.lowerBound { marked.append((position..<match.lowerBound, invert)) }
            marked.append((match, !invert))
            position = match.upperBound
        }
        if position < piece.upperBound { marked.append((position..<piece.upperBound, invert)) }

        var out: [Range<Int>] = []
        switch behavior {
        case .removed:
            out = marked.filter { !$0.1 }.map(\.0)
        case .isolated:
            out = marked.map(\.0)
        case .mergedWithPrevious:
            var previousMatch = false
            for (range, isMatch) in marked {
                if isMatch, !previousMatch, let last = out.last {
                    out[out.count - 1] = last.lowerBound..<range.upperBound
                } else {
                    out.append(range)
                }
                previousMatch = isMatch
            }
        case .mergedWithNext:
            var previousMatch = false
            for (range, isMatch) in marked.reversed() {
                if isMatch, !previousMatch, let last = out.last {
                    out[out.count - 1] = range.lowerBound..<last.upperBound
                } else {
                    out.append(range)
                }
                previousMatch = isMatch
            }
            out.reverse()
        case .contiguous:
            var previousMatch = false
            for (range, isMatch) in marked {
                if isMatch == previousMatch, let last = out.last {
                    out[out.count - 1] = last.lowerBound..<range.upperBound
                } else {
                    out.append(range)
                }
                previousMatch = isMatch
            }
        }
        result.append(contentsOf: out.filter { !$0.isEmpty })
    }
}
