import Foundation

/// Rendered CHAR and KEY messages, ready to send, kept for the most recently used `capacity` keys.
/// A screen reader sends the same few characters over and over; a hit costs no synthesis at all.
final class FrameCache: @unchecked Sendable {
    struct Key: Hashable, Sendable {
        var voice: String
        var text: String
        /// Rate, pitch and volume factors, rounded to 1e-3.
        var rate: Int
        var pitch: Int
        var volume: Int

        init(voice: String, text: String, rate: Double, pitch: Double, volume: Double) {
            self.voice = voice
            self.text = text
            self.rate = Int((rate * 1000).rounded())
            self.pitch = Int((pitch * 1000).rounded())
            self.volume = Int((volume * 1000).rounded())
        }
    }

    // `entries` and `tick` are guarded by `lock`.
    private let lock = NSLock()
    private var entries: [Key: (frames: [AudioFrame], tick: UInt64)] = [:]
    private var tick: UInt64 = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func frames(for key: Key) -> [AudioFrame]? {
        lock.withLock {
            guard let entry = entries[key] else { return nil }
            tick += 1
            entries[key] = (entry.frames, tick)
            return entry.frames
        }
    }

    func insert(_ frames: [AudioFrame], for key: Key) {
        guard capacity > 0 else { return }
        lock.withLock {
            tick += 1
            entries[key] = (frames, tick)
            if entries.count > capacity, let oldest = entries.min(by: { $0.value.tick < $1.value.tick }) {
                entries.removeValue(forKey: oldest.key)
            }
        }
    }

    var count: Int { lock.withLock { entries.count } }
}
