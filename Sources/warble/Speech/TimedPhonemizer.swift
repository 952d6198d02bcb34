import Foundation
import WarbleText

/// A phonemizer that adds up the time its base spends (for `warble bench tts`'s breakdown of the
/// time outside ONNX Runtime).
final class TimedPhonemizer: Phonemizer, @unchecked Sendable {
    // `seconds` is only touched under `lock`.
    private let base: any Phonemizer
    private let lock = NSLock()
    private var total = 0.0

    init(_ base: any Phonemizer) { self.base = base }

    var seconds: Double { lock.withLock { total } }

    func reset() { lock.withLock { total = 0 } }

    func phonemize(_ text: String, language: String) throws -> String {
        let start = ContinuousClock.now
        defer {
            let elapsed = (ContinuousClock.now - start).seconds
            lock.withLock { total += elapsed }
        }
        return try base.phonemize(text, language: language)
    }
}
