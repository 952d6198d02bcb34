import Foundation
import Testing
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// The decode loop holds one KV cache and nothing else that grows: over 2,000 decode steps resident
/// memory grows by about the cache's own final size (the step's new cache and the one it replaces),
/// never by anything that accumulates per step (the Chatterbox seed's 2 GB → 16 GB). Cancelling
/// drops the cache at once. On the fixture graphs, whose cache has the real export's layout
/// [48, 1, 2, length, 64].
@Suite(.needs(fixtures: "cosyvoice3"), .needsRuntime, .serialized) struct CosyVoice3MemoryTests {
    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "cannot read the resident set size from /proc/self/statm" }
    }

    static func residentBytes() throws -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { throw Unreadable() }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// A generation of 2,000 decode steps, then two of 1,000: the first grows resident memory by the
    /// cache (the step's new cache and the one it replaces) and ONNX Runtime's arena reaching its
    /// peak; the second settles the allocator (measured: +8.4 MiB, then +0.9 MiB and 0 in later ones);
    /// the third must add almost nothing, since every step reuses what earlier ones freed. A leak of
    /// anything per step (the logits are 26 KiB a step, 26 MiB over 1,000 steps) would show there.
    @Test func memoryStaysFlatOverTwoThousandDecodeSteps() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let request = try model.request(text: "Hello there.", voice: try CosyVoice3TestFixtures.voice())
        /// Resident bytes after 200 steps and at the end.
        func generate(_ steps: Int) throws -> (early: Int, end: Int) {
            // minLength = maxLength: exactly `steps` steps (stop ids are masked until then).
            var generation = CosyVoice3TokenGeneration(model: model.llm, text: request.promptTextIDs + request.ttsTextIDs,
                                                       promptTokens: request.llmPromptTokens, minLength: steps, maxLength: steps, seed: 1)
            var early: Int?
            while try generation.next(cancel: CancellationToken()) != nil {
                if early == nil, generation.produced.count >= 200 { early = try Self.residentBytes() }
            }
            #expect(generation.produced.count == steps && generation.stopID == nil && !generation.holdsCache)
            return (early ?? 0, try Self.residentBytes())
        }
        let first = try generate(2_000)
        let second = try generate(1_000)
        let third = try generate(1_000)
        let rows = 2_000 + request.promptTextIDs.count + request.ttsTextIDs.count + 2 + request.llmPromptTokens.count
        let cacheBytes = 48 * 2 * rows * 64 * 4
        let firstGrowth = first.end - first.early, thirdGrowth = third.end - second.end
        print("CosyVoice 3 decode memory: +\(firstGrowth >> 20) MiB over steps 200–2,000 (final cache \(cacheBytes >> 20) MiB), "
            + "+\((second.end - first.end) >> 10) KiB over the next 1,000, +\(thirdGrowth >> 10) KiB over 1,000 more")
        #expect(firstGrowth < 4 * cacheBytes + 64 << 20,
                "the first 2,000 steps grew resident memory by \(firstGrowth >> 20) MiB; the final cache is \(cacheBytes >> 20) MiB")
        #expect(thirdGrowth < 4 << 20, "the third generation's 1,000 steps grew resident memory by \(thirdGrowth >> 10) KiB")
    }

    @Test func cancellingDropsTheCacheAtOnce() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let request = try model.request(text: "Hello there.", voice: try CosyVoice3TestFixtures.voice())
        var generation = CosyVoice3TokenGeneration(model: model.llm, text: request.promptTextIDs + request.ttsTextIDs,
                                                   promptTokens: request.llmPromptTokens, minLength: 100, maxLength: 100, seed: 1)
        let cancel = CancellationToken()
        for _ in 0..<10 { _ = try generation.next(cancel: cancel) }
        #expect(generation.holdsCache)
        cancel.cancel()
        #expect(throws: CancellationError.self) { try generation.next(cancel: cancel) }
        #expect(!generation.holdsCache && generation.isFinished)
        #expect(try generation.next(cancel: cancel) == nil, "a cancelled generation stays finished")
    }
}
