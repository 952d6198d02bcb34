import Foundation
import ONNXRuntime
import WarbleSpeech

/// Chatterbox Turbo's language model (seed-models.md §2): `embed_tokens` and a GPT-2 decoder with a
/// per-layer KV cache. Its layout — layers, heads, head size, width, every element type — is read
/// from the sessions (the "Nano" export has 12 layers at width 768; the fixtures have 3 at 64), never
/// assumed. Immutable and shared; a request's state lives in its `ChatterboxTokenGeneration`.
final class ChatterboxLanguageModel: Sendable {
    static let start = 6561
    static let stop = 6562
    /// Speech token ids are below this.
    static let speechCodes = 6561
    /// The longest utterance, in tokens written (STOP included).
    static let maxNewTokens = 1024

    let embedTokens: ModelGraph
    let languageModel: ModelGraph
    let layers: Int
    let heads: Int
    let headSize: Int
    let width: Int

    init(files: ChatterboxFiles, options: SessionOptions) throws {
        embedTokens = try ModelGraph(files.embedTokens, model: "Chatterbox Turbo", role: "token embedding",
                                     inputs: [.exact("input_ids", .int64)], outputs: ["inputs_embeds"], options: options)
        let session = try Session(contentsOf: files.languageModel, options: options)
        let layers = KVCache.huggingFaceLayers(of: session)
        guard layers > 0 else {
            throw ModelError(.badModel, "\(files.languageModel.lastPathComponent) is not Chatterbox Turbo's language model: it has no "
                + "past_key_values.{i}.key inputs (inputs: " + session.inputs.map(\.name).joined(separator: ", ") + ")")
        }
        languageModel = try ModelGraph(
            session: session, file: files.languageModel.lastPathComponent, model: "Chatterbox Turbo", role: "language model",
            inputs: [.float("inputs_embeds"), .exact("attention_mask", .int64), .exact("position_ids", .int64)]
                + (0..<layers).flatMap { [.float("past_key_values.\($0).key"), .float("past_key_values.\($0).value")] },
            outputs: ["logits"] + (0..<layers).flatMap { ["present.\($0).key", "present.\($0).value"] })
        let key = session.input(named: "past_key_values.0.key")?.shape.map(\.value) ?? []
        guard key.count == 4, let heads = key[1], let headSize = key[3],
              let width = session.input(named: "inputs_embeds")?.shape.last?.value else {
            throw ModelError(.badModel, "\(files.languageModel.lastPathComponent): past_key_values.0.key must be [batch, heads, past, head size] "
                + "with fixed heads and head size, and inputs_embeds [batch, length, width] with a fixed width")
        }
        self.layers = layers
        self.heads = heads
        self.headSize = headSize
        self.width = width
    }

    /// `embed_tokens(ids)` as f32 rows of `width`.
    func embed(_ ids: [Int], options: RunOptions?) throws -> [Float] {
        let outputs = try embedTokens.run(["input_ids": try Tensor(ids.map(Int64.init), shape: [1, ids.count])], options: options)
        let (values, shape) = try ModelTensors.read(outputs, "inputs_embeds")
        guard shape == [1, ids.count, width] else {
            throw ModelError(.badModel, "embed_tokens gave \(shape) for \(ids.count) ids; the language model takes width \(width)")
        }
        return values
    }

    func emptyCache() throws -> KVCache {
        try KVCache(session: languageModel.session, entries: KVCache.huggingFaceEntries(layers: layers), batch: 1)
    }
}
