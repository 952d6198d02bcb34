import Foundation
import ONNXRuntime
import Testing
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// The decoding kit's KV cache on real ONNX Runtime runs of the synthetic decoders that
/// tools/decoding/make_fixtures.py makes (Hugging Face per-layer names and CosyVoice's stacked
/// tensor, each in f32 and f16): the cache grows by the positions run, keeps the session's element
/// type (f16 stays f16), feeds back what the graph returned, and reorders rows. Exact values: the
/// graphs compute logits = position + 1000 · mask length + the sum of layer 0's keys.
@Suite(.needs(fixtures: "decoding"), .needsRuntime) struct KVCacheLayoutTests {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent("Tests/Fixtures/generated/decoding")
    }()

    func session(_ name: String) throws -> Session {
        let url = Self.directory.appendingPathComponent("\(name).onnx")
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record("\(url.path) is missing: run scripts/test.sh (or tools/decoding/make_fixtures.py)")
            throw CocoaError(.fileNoSuchFile)
        }
        return try Session(contentsOf: url, options: SessionOptions(intraOpThreads: 1))
    }

    /// One step: `rows` of new tokens after `cache.length` positions; the logits' first column per position.
    func step(_ session: Session, _ cache: inout KVCache, _ rows: [[Int]]) throws -> [[Float]] {
        let count = rows[0].count
        var feeds: [String: Tensor] = [
            "input_ids": try StepInputs.tokens(rows, as: StepInputs.type(of: "input_ids", in: session)),
            "attention_mask": try StepInputs.attentionMask(total: cache.length + count, batch: rows.count),
            "position_ids": try StepInputs.positions(start: cache.length, count: count, batch: rows.count),
        ]
        cache.feed(into: &feeds)
        let outputs = try session.run(feeds)
        try cache.update(from: outputs, added: count)
        let logits = try outputs.tensor("logits").scalars(as: Float.self)
        return (0..<rows.count).map { b in (0..<count).map { s in logits[(b * count + s) * 5] } }
    }

    static let layouts: [(graph: String, entries: [KVCache.Entry], perToken: Float)] = [
        ("perlayer", KVCache.huggingFaceEntries(layers: 2), 8),
        ("stacked", [KVCache.Entry(past: "past_key_values", present: "present_key_values", batchAxis: 1, sequenceAxis: 3)], 6),
    ]

    @Test(arguments: ["f32", "f16"], [0, 1])
    func growsStepByStepInTheSessionsElementType(kind: String, layout: Int) throws {
        let (graph, entries, perToken) = Self.layouts[layout]
        let session = try session("\(graph)_\(kind)")
        var cache = try KVCache(session: session, entries: entries, batch: 1)
        let type: ElementType = kind == "f16" ? .float16 : .float32
        #expect(cache.elementTypes.allSatisfy { $0 == type } && cache.length == 0)
        // Prefill three tokens at positions 0–2, then one at a time.
        #expect(try step(session, &cache, [[1, 2, 3]]) == [[0, 1, 2].map { Float($0) + 3000 + perToken * 6 }])
        #expect(try step(session, &cache, [[4]]) == [[3 + 4000 + perToken * 10]])
        #expect(try step(session, &cache, [[5]]) == [[4 + 5000 + perToken * 15]])
        #expect(cache.length == 5 && cache.elementTypes.allSatisfy { $0 == type })
    }

    @Test(arguments: ["f32", "f16"], [0, 1])
    func reorderKeepsTheChosenRows(kind: String, layout: Int) throws {
        let (graph, entries, perToken) = Self.layouts[layout]
        let session = try session("\(graph)_\(kind)")
        var cache = try KVCache(session: session, entries: entries, batch: 2)
        _ = try step(session, &cache, [[1, 2, 3], [4, 5, 6]])
        try cache.reorder([1, 1, 0])
        #expect(cache.batch == 3)
        let next = try step(session, &cache, [[7], [7], [7]])
        #expect(next == [[3 + 4000 + perToken * 22], [3 + 4000 + perToken * 22], [3 + 4000 + perToken * 13]])
    }

    @Test func aMissingCacheInputIsAClearError() throws {
        let session = try session("perlayer_f32")
        #expect { try KVCache(session: session, entries: KVCache.huggingFaceEntries(layers: 3), batch: 1) } throws: { error in
            "\(error)".contains("no cache input 'past_key_values.2.key'")
        }
        #expect(KVCache.huggingFaceLayers(of: session) == 2)
    }
}
