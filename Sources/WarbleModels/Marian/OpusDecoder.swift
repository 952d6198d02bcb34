import Foundation
import ONNXRuntime
import WarbleSpeech

/// The Opus-MT one-step decoder (tools/marian/convert_opus.py): `input_ids` [B, 1], `encoder_out`
/// [B, S, D], `attention_mask` [B, S], `past_key_{i}`/`past_value_{i}` [B, H, P, D/H] (its position is
/// P) → `logits` [B, V] and `present_key_{i}`/`present_value_{i}`. The layers come from the session.
struct OpusDecoder: Sendable {
    let graph: ModelGraph
    let session: Session
    let entries: [KVCache.Entry]
    let vocabularySize: Int

    init(url: URL, options: SessionOptions) throws {
        let session = try Session(contentsOf: url, options: options)
        let layers = session.inputs.filter { $0.name.hasPrefix("past_key_") }.count
        guard layers > 0 else {
            throw ModelError(.badModel, "\(url.lastPathComponent) is not an Opus-MT decoder: it has no past_key_{i} inputs (inputs: "
                + session.inputs.map(\.name).joined(separator: ", ") + "); convert the model with tools/marian/convert_opus.py")
        }
        entries = (0..<layers).flatMap { layer in
            ["key", "value"].map { KVCache.Entry(past: "past_\($0)_\(layer)", present: "present_\($0)_\(layer)", sequenceAxis: 2) }
        }
        graph = try ModelGraph(session: session, file: url.lastPathComponent, model: "Opus-MT", role: "decoder",
                               inputs: [.index("input_ids"), .index("attention_mask"), .float("encoder_out")] + entries.map { .float($0.past) },
                               outputs: ["logits"] + entries.map(\.present))
        guard let width = session.output(named: "logits")?.shape.last, case .fixed(let size) = width, size > 0 else {
            throw ModelError(.badModel, "\(url.lastPathComponent): Opus-MT's decoder output logits has no fixed width")
        }
        self.session = session
        vocabularySize = size
    }

    func emptyCache(batch: Int) throws -> KVCache { try KVCache(session: session, entries: entries, batch: batch) }

    /// One step for every row of the cache: each row's previous token → its logits (row-major [B, V]).
    func step(_ previous: [Int], cache: inout KVCache, encoded: Tensor, mask: Tensor, options: RunOptions?) throws -> [Float] {
        var feeds: [String: Tensor] = [
            "input_ids": try graph.indices(previous, shape: [previous.count, 1], for: "input_ids"),
            "encoder_out": encoded, "attention_mask": mask,
        ]
        cache.feed(into: &feeds)
        let outputs = try graph.run(feeds, options: options)
        let (logits, shape) = try ModelTensors.read(outputs, "logits")
        guard shape == [previous.count, vocabularySize] else {
            throw ModelError(.badModel, "Opus-MT's decoder gave logits of shape \(shape) for \(previous.count) rows")
        }
        try cache.update(from: outputs, added: 1)
        return logits
    }
}
