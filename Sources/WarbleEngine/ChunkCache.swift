import ONNXRuntime
import WarbleSpeech
import WarbleModels

/// Rendered utterances, keyed by model, voice, spoken text and rate, kept up to a size bound and
/// evicted least recently used first. Shared by all requests of an engine.
public final class ChunkCache: @unchecked Sendable {
    // All access goes through `lock`.
    public struct Key: Hashable, Sendable {
        public var model: String
        public var voice: String
        public var text: String
        public var phonemes: String?
        public var language: String
        /// Rate, rounded to 1e-3 so that float noise does not split entries.
        public var rate: Int
    }

    private let lock = Lock()
    private var entries: [Key: (value: RenderedUtterance, tick: UInt64)] = [:]
    private var tick: UInt64 = 0
    private var bytes = 0
    public let capacityBytes: Int
    public private(set) var hits = 0
    public private(set) var misses = 0

    public init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    public var byteCount: Int { lock.withLock { bytes } }
    public var count: Int { lock.withLock { entries.count } }

    func value(for key: Key) -> RenderedUtterance? {
        lock.withLock {
            guard let entry = entries[key] else {
                misses += 1
                return nil
            }
            hits += 1
            tick += 1
            entries[key] = (entry.value, tick)
            return entry.value
        }
    }

    func insert(_ value: RenderedUtterance, for key: Key) {
        let size = value.samples.count * MemoryLayout<Float>.stride
        guard size <= capacityBytes else { return }
        lock.withLock {
            if let old = entries[key] { bytes -= old.value.samples.count * MemoryLayout<Float>.stride }
            tick += 1
            entries[key] = (value, tick)
            bytes += size
            while bytes > capacityBytes, let oldest = entries.min(by: { $0.value.tick < $1.value.tick }) {
                bytes -= oldest.value.value.samples.count * MemoryLayout<Float>.stride
                entries.removeValue(forKey: oldest.key)
            }
        }
    }

    public func removeAll() {
        lock.withLock {
            entries.removeAll()
            bytes = 0
        }
    }
}
