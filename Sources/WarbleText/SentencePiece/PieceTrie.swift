/// A byte trie from piece strings (UTF-8) to ids: the unigram lattice walks it from each position
/// (every piece that is a prefix of the rest, shortest first, as darts-clone's traversal gives them),
/// and the user-defined symbol matcher uses it for longest matches.
struct PieceTrie: Sendable {
    /// Children keyed by `node << 8 | byte`.
    private var children: [UInt64: Int32] = [:]
    /// The id stored at each node, or -1.
    private var values: [Int32] = [-1]

    init() {}

    init(_ entries: [(key: [UInt8], id: Int32)]) {
        for entry in entries { insert(entry.key, id: entry.id) }
    }

    var isEmpty: Bool { values.count == 1 && values[0] < 0 }

    mutating func insert(_ key: [UInt8], id: Int32) {
        var node: Int32 = 0
        for byte in key {
            let slot = UInt64(node) << 8 | UInt64(byte)
            if let child = children[slot] {
                node = child
            } else {
                let child = Int32(values.count)
                values.append(-1)
                children[slot] = child
                node = child
            }
        }
        if values[Int(node)] < 0 { values[Int(node)] = id }
    }

    /// Calls `body(length, id)` for every key that is a prefix of `bytes[start...]`, shortest first.
    @inline(__always)
    func forEachPrefix(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ body: (Int, Int32) -> Void) {
        var node: Int32 = 0
        var i = start
        while i < bytes.count {
            guard let child = children[UInt64(node) << 8 | UInt64(bytes[i])] else { return }
            node = child
            i += 1
            let value = values[Int(node)]
            if value >= 0 { body(i - start, value) }
        }
    }

    /// The length of the longest key that is a prefix of `bytes[start...]`, or 0.
    func longestPrefix(of bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var longest = 0
        forEachPrefix(of: bytes, from: start) { length, _ in longest = length }
        return longest
    }

    /// The id of exactly `bytes[range]`, or nil.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int32? {
        var node: Int32 = 0
        for i in range {
            guard let child = children[UInt64(node) << 8 | UInt64(bytes[i])] else { return nil }
            node = child
        }
        let value = values[Int(node)]
        return value >= 0 ? value : nil
    }
}
