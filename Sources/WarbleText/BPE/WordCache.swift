import Foundation

/// The ids of pieces already merged, shared by every copy of a tokenizer and every thread (as in Hugging
/// Face `tokenizers`). Insertions stop once `capacity` pieces are stored, so memory stays bounded.
final class WordCache: @unchecked Sendable {
    // `storage` is only touched with `lock` held.
    private let lock = NSLock()
    private var storage: [[UInt8]: [Int32]] = [:]
    let capacity: Int

    init(capacity: Int = 100_000) { self.capacity = capacity }

    func ids(for piece: [UInt8]) -> [Int32]? {
        lock.lock()
        defer { lock.unlock() }
        return storage[piece]
    }

    func store(_ ids: [Int32], for piece: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        if storage.count < capacity { storage[piece] = ids }
    }
}
