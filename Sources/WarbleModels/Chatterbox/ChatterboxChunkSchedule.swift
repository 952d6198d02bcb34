/// The chunks a Chatterbox stream decodes its speech tokens in (tools/chatterbox/README.md item 8): non-final
/// chunk k holds min(first · 2^k, cap) new tokens and is decoded as soon as they exist; the final chunk holds
/// the rest (fewer than the next chunk's size, maybe none) and the three silence tokens.
///
/// The decoder has no state to carry between chunks (no cache inputs, and its encoder and flow attend over
/// the whole prompt and chunk), so each chunk re-decodes the voice's 10-s prompt: growing chunks pay that
/// cost fewer times while the first audio comes as early as before.
package struct ChatterboxChunkSchedule: Sendable, Equatable {
    /// 25, 50, 100, 200, 200, … tokens (1, 2, 4, 8, 8, … s of audio).
    package static let growing = ChatterboxChunkSchedule(first: 25, cap: 200)
    /// 25 tokens each: the rule before 2026-11-29, kept for the benchmark's comparison.
    package static let fixed = ChatterboxChunkSchedule(first: 25, cap: 25)

    package let first: Int
    package let cap: Int

    /// New tokens of the chunk after one of `size` new tokens.
    package func size(after size: Int) -> Int { min(2 * size, cap) }

    /// The chunks of a stream of `speechTokens` tokens, in order: their tokens and whether they are final.
    package func plan(speechTokens n: Int) -> [(tokens: Range<Int>, final: Bool)] {
        var plan: [(tokens: Range<Int>, final: Bool)] = []
        var (start, size) = (0, first)
        while start + size <= n {
            plan.append((start..<(start + size), false))
            (start, size) = (start + size, self.size(after: size))
        }
        plan.append((start..<n, true))
        return plan
    }
}
