/// A byte-level BPE model: the vocabulary keyed by the bytes each token stands for, and the merges.
struct BPEModel: Sendable {
    /// Token strings as written in the file, indexed by id (nil for unused ids).
    let tokens: [String?]
    let tokenIDs: [String: Int32]
    /// Bytes of each token (after undoing the byte-level alphabet) to id; used by `ignoreMerges`.
    let byteTokenIDs: [[UInt8]: Int32]
    /// Id of each single byte, or -1 when the vocabulary lacks it.
    let byteIDs: [Int32]
    let merges: MergeTable
    let ignoreMerges: Bool
    let unknownID: Int32?

    init(vocab: [String: Int32], merges: [(String, String)], ignoreMerges: Bool, unknownToken: String?) throws {
        tokenIDs = vocab
        let maxID = Int(vocab.values.max() ?? -1)
        var tokens = [String?](repeating: nil, count: maxID + 1)
        var byteTokenIDs: [[UInt8]: Int32] = [:]
        byteTokenIDs.reserveCapacity(vocab.count)
        var byteIDs = [Int32](repeating: -1, count: 256)
        for (token, id) in vocab {
            guard id >= 0 else { throw TextError(.tokenizerFile, "vocabulary id \(id) of \(token) is negative") }
            tokens[Int(id)] = token
            let bytes = ByteLevelAlphabet.decode(token)
            byteTokenIDs[bytes] = id
            if bytes.count == 1, token.unicodeScalars.count == 1 { byteIDs[Int(bytes[0])] = id }
        }
        var table: [(left: Int32, right: Int32, merged: Int32)] = []
        table.reserveCapacity(merges.count)
        for (rank, (left, right)) in merges.enumerated() {
            guard let l = vocab[left], let r = vocab[right] else {
                throw TextError(.tokenizerFile, "merge \(rank) (\(left) \(right)) uses a token that is not in the vocabulary")
            }
            guard let m = vocab[left + right] else {
                throw TextError(.tokenizerFile, "merge \(rank) (\(left) \(right)) makes \(left + right), which is not in the vocabulary")
            }
            table.append((l, r, m))
        }
        self.tokens = tokens
        self.byteTokenIDs = byteTokenIDs
        self.byteIDs = byteIDs
        self.merges = MergeTable(table)
        self.ignoreMerges = ignoreMerges
        self.unknownID = unknownToken.flatMap { vocab[$0] }
    }

    /// Appends the ids of one pre-tokenized piece.
    func encode(_ piece: UnsafeBufferPointer<UInt8>, into ids: inout [Int32], symbols: inout [Int32]) {
        if ignoreMerges, let id = byteTokenIDs[Array(piece)] {
            ids.append(id)
            return
        }
        symbols.removeAll(keepingCapacity: true)
        for byte in piece {
            let id = byteIDs[Int(byte)]
            if id >= 0 {
                symbols.append(id)
            } else if let unknownID {
                symbols.append(unknownID)
            }
        }
        merge(&symbols)
        ids.append(contentsOf: symbols)
    }

    /// Applies merges lowest rank first; every occurrence of the chosen pair merges left to right.
    @inline(__always)
    private func merge(_ symbols: inout [Int32]) {
        while symbols.count > 1 {
            var bestRank = Int32.max
            var bestIndex = -1
            var bestMerged: Int32 = 0
            for k in 0..<(symbols.count - 1) {
                if let found = merges.lookup(symbols[k], symbols[k + 1]), found.rank < bestRank {
                    bestRank = found.rank
                    bestIndex = k
                    bestMerged = found.merged
                }
            }
            if bestIndex < 0 { return }
            let left = symbols[bestIndex]
            let right = symbols[bestIndex + 1]
            var write = bestIndex
            var read = bestIndex
            let count = symbols.count
            while read < count {
                if read + 1 < count, symbols[read] == left, symbols[read + 1] == right {
                    symbols[write] = bestMerged
                    read += 2
                } else {
                    symbols[write] = symbols[read]
                    read += 1
                }
                write += 1
            }
            symbols.removeLast(count - write)
        }
    }
}
