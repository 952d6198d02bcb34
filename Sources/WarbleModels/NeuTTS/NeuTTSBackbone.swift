import Foundation
import ONNXRuntime
import WarbleSpeech

/// NeuTTS's backbone in the standard decoder-only export layout (`tools/neutts/convert.py` writes it
/// from the repository's safetensors; any export in that layout is taken): `input_ids`,
/// `attention_mask`, `position_ids` and `past_key_values.{i}.key/value` → `logits` and
/// `present.{i}.key/value`; `logits` for every position or, as the converter writes it, for the last
/// one only (generation reads no other, and the head over a whole prompt was 38 % of the prefill).
/// Layers, KV heads, head size and every element type are read from the session (Nano has 24 layers
/// with 3 KV heads, the fixtures 3 with 2), never assumed.
final class NeuTTSBackbone: Sendable {
    let graph: ModelGraph
    let layers: Int
    /// The longest context, prompt and written tokens together (the reference's `max_context`).
    let context: Int

    init(url: URL, context: Int, options: SessionOptions) throws {
        let session = try Session(contentsOf: url, options: options)
        let layers = KVCache.huggingFaceLayers(of: session)
        guard layers > 0 else {
            throw ModelError(.badModel, "\(url.lastPathComponent) is not a NeuTTS backbone: it has no past_key_values.{i}.key inputs "
                + "(inputs: " + session.inputs.map(\.name).joined(separator: ", ") + "); convert the repository with tools/neutts/convert.py")
        }
        graph = try ModelGraph(
            session: session, file: url.lastPathComponent, model: "NeuTTS", role: "backbone",
            inputs: [.index("input_ids"), .index("attention_mask"), .index("position_ids")]
                + (0..<layers).flatMap { [.float("past_key_values.\($0).key"), .float("past_key_values.\($0).value")] },
            outputs: ["logits"] + (0..<layers).flatMap { ["present.\($0).key", "present.\($0).value"] })
        self.layers = layers
        self.context = context
    }

    func emptyCache() throws -> KVCache {
        try KVCache(session: graph.session, entries: KVCache.huggingFaceEntries(layers: layers), batch: 1)
    }

    /// Runs `ids` after what `cache` holds; returns the last row's logits and updates the cache.
    func step(_ ids: [Int], cache: inout KVCache, options: RunOptions?) throws -> [Float] {
        let total = cache.length + ids.count
        var feeds: [String: Tensor] = [
            "input_ids": try graph.indices(ids, shape: [1, ids.count], for: "input_ids"),
            "attention_mask": try StepInputs.attentionMask(total: total, batch: 1, as: graph.elementType(of: "attention_mask")),
            "position_ids": try StepInputs.positions(start: cache.length, count: ids.count, batch: 1,
                                                     as: graph.elementType(of: "position_ids")),
        ]
        cache.feed(into: &feeds)
        let outputs = try graph.run(feeds, options: options)
        let (logits, shape) = try ModelTensors.lastRow(outputs, "logits")
        // Every position's logits (the standard export layout) or the last one's (Warble's converter).
        guard shape.count == 3, shape[0] == 1, shape[1] == ids.count || shape[1] == 1 else {
            throw ModelError(.badModel, "NeuTTS's backbone gave logits of shape \(shape) for \(ids.count) tokens")
        }
        try cache.update(from: outputs, added: ids.count)
        return logits
    }
}
