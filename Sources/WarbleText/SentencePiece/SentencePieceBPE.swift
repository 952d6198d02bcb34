/// The BPE model's segmentation (bpe_model.cc's `SampleEncode` without dropout): the normalized text
/// split into characters (a user-defined symbol is one frozen symbol), then the adjacent pair whose
/// concatenation is the best-scored piece merged first (the leftmost on ties), until no pair is a
/// piece. A merge into an unused piece is undone at the end, as sentencepiece resegments it.
struct SentencePieceBPE: Sendable {
    let pieces: PieceTrie
    let userDefined: PieceTrie
    let scores: [Float]
    let types: [SentencePieceModelProto.PieceType]

    private struct Symbol {
        var previous: Int
        var next: Int
        var frozen: Bool
        var start: Int
        var length: Int
    }

    private struct Pair {
        var left: Int
        var right: Int
        var score: Float
        var size: Int

        /// The agenda's order: higher score first, then the leftmost.
        func precedes(_ other: Pair) -> Bool {
            score > other.score || (score == other.score && left < other.left)
        }
    }

    /// The segmentation as byte ranges of `normalized` (or the bytes of a resegmented unused piece) and the
    /// piece strings, to be looked up by the caller.
    func encode(_ normalized: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
        guard !normalized.isEmpty else { return [] }
        var symbols: [Symbol] = []
        symbols.reserveCapacity(normalized.count)
        var position = 0
        while position < normalized.count {
            let matched = userDefined.isEmpty ? 0 : userDefined.longestPrefix(of: normalized, from: position)
            let length = matched > 0 ? matched : min(normalized.count - position, UTF8Scalar.oneCharLength(normalized[position]))
            let index = symbols.count
            position += length
            symbols.append(Symbol(previous: index - 1, next: position < normalized.count ? index + 1 : -1,
                                  frozen: matched > 0, start: position - length, length: length))
        }

        var agenda = Heap()
        var reverseMerges: [[UInt8]: ([UInt8], [UInt8])] = [:]
        func addPair(_ left: Int, _ right: Int) {
            guard left >= 0, right >= 0, !symbols[left].frozen, !symbols[right].frozen else { return }
            let start = symbols[left].start
            let size = symbols[left].length + symbols[right].length
            guard let id = pieces.lookup(normalized, start..<(start + size)) else { return }
            agenda.push(Pair(left: left, right: right, score: scores[Int(id)], size: size))
            if types[Int(id)] == .unused {
                let l = symbols[left], r = symbols[right]
                reverseMerges[Array(normalized[start..<(start + size)])] =
                    (Array(normalized[l.start..<(l.start + l.length)]), Array(normalized[r.start..<(r.start + r.length)]))
            }
        }
        for i in 1..<max(1, symbols.count) { addPair(i - 1, i) }

        while let top = agenda.pop() {
            let left = symbols[top.left], right = symbols[top.right]
            guard left.length > 0, right.length > 0, left.length + right.length == top.size else { continue }
            symbols[top.left].length += right.length
            symbols[top.left].next = right.next
            if right.next >= 0 { symbols[right.next].previous = top.left }
            symbols[top.right].length = 0
            addPair(symbols[top.left].previous, top.left)
            addPair(top.left, symbols[top.left].next)
        }

        var output: [[UInt8]] = []
        func resegment(_ piece: [UInt8]) {
            if let id = piece.withUnsafeBufferPointer({ pieces.lookup($0, 0..<$0.count) }), types[Int(id)] == .unused,
               let (left, right) = reverseMerges[piece] {
                resegment(left)
                resegment(right)
            } else {
                output.append(piece)
            }
        }
        var index = 0
        while index >= 0, index < symbols.count {
            let symbol = symbols[index]
            resegment(Array(normalized[symbol.start..<(symbol.start + symbol.length)]))
            index = symbol.next
        }
        return output
    }

    /// A binary max-heap of pairs in the agenda's order.
    private struct Heap {
        private var items: [Pair] = []

        mutating func push(_ pair: Pair) {
            items.append(pair)
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[child].precedes(items[parent]) else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() -> Pair? {
            guard let top = items.first else { return nil }
            let last = items.removeLast()
            if !items.isEmpty {
                items[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var best = parent
                    if left < items.count, items[left].precedes(items[best]) { best = left }
                    if right < items.count, items[right].precedes(items[best]) { best = right }
                    if best == parent { break }
                    items.swapAt(parent, best)
                    parent = best
                }
            }
            return top
        }
    }
}
