import Foundation
import ONNXRuntime
import WarbleSpeech

/// CosyVoice 3's LLM (seed-models.md §1.5): a Qwen2 backbone in two graphs (a prefill that makes the
/// stacked KV cache, and one-token decode steps that extend it), a speech-token embedding and the
/// decoder to 6,761 logits. Immutable and shared; each request runs a `CosyVoice3TokenGeneration`.
struct CosyVoice3LanguageModel: Sendable {
    /// Speech tokens are 0..<6561; every id from here on stops decoding.
    static let speechTokenCount = 6561
    static let startOfSequence = 6561
    static let endOfSequence = 6562
    static let taskID = 6563
    /// `<|endofprompt|>` in the Qwen2 vocabulary.
    static let endOfPrompt = 151_646

    let textEmbedding: ModelGraph
    let speechEmbedding: ModelGraph
    let initial: ModelGraph
    let decode: ModelGraph
    let decoder: ModelGraph
    var sampler = RepetitionAwareSampler()

    /// The stacked cache `[48, batch, 2, sequence, 64]`: the prefill's `past_key_values` output and the
    /// decode graph's `past_key_values` input / `new_past_key_values` output.
    static let cacheEntry = KVCache.Entry(past: "past_key_values", present: "new_past_key_values", batchAxis: 1, sequenceAxis: 3)

    init(files: CosyVoice3Files, options: SessionOptions) throws {
        textEmbedding = try ModelGraph(files.textEmbedding, model: "CosyVoice 3", role: "text embedding", inputs: [.index("input_ids")],
                                            outputs: ["embeddings"], options: options)
        speechEmbedding = try ModelGraph(files.speechEmbedding, model: "CosyVoice 3", role: "speech-token embedding", inputs: [.index("token")],
                                              outputs: ["embedded"], options: options)
        initial = try ModelGraph(files.backboneInitial, model: "CosyVoice 3", role: "LLM backbone (initial pass)",
                                      inputs: [.float("inputs_embeds"), .float("attention_mask")],
                                      outputs: ["hidden_states", "past_key_values"], options: options)
        decode = try ModelGraph(files.backboneDecode, model: "CosyVoice 3", role: "LLM backbone (decode step)",
                                     inputs: [.float("inputs_embeds"), .float("attention_mask"),
                                              .init(name: "past_key_values", types: [.float32, .float16])],
                                     outputs: ["hidden_states", "new_past_key_values"], options: options)
        decoder = try ModelGraph(files.llmDecoder, model: "CosyVoice 3", role: "LLM decoder", inputs: [.float("hidden_state")],
                                      outputs: ["logits"], options: options)
        guard let produced = initial.session.output(named: "past_key_values")?.elementType,
              produced == decode.elementType(of: "past_key_values") else {
            throw ModelError(.badModel, "\(files.backboneInitial.lastPathComponent) makes a KV cache of "
                + "\(initial.session.output(named: "past_key_values")?.elementType.description ?? "?") but "
                + "\(files.backboneDecode.lastPathComponent) takes \(decode.elementType(of: "past_key_values")): they are not one variant")
        }
    }

    /// The element type of the KV cache (f16 in some fp16 exports).
    var cacheElementType: ElementType { decode.elementType(of: "past_key_values") }

    /// Embeddings of `ids` from `graph`, as `[count × width]` floats.
    func embed(_ ids: [Int], with graph: ModelGraph, input: String, output: String, options: RunOptions?) throws
        -> (values: [Float], width: Int) {
        guard !ids.isEmpty else { return ([], 0) }
        let outputs = try graph.run([input: try graph.indices(ids, shape: [1, ids.count], for: input)], options: options)
        let (values, shape) = try ModelTensors.read(outputs, output)
        return (values, shape.last ?? 0)
    }

    /// `[speech_emb(SOS)] ++ text_emb(text) ++ [speech_emb(TASK_ID)] ++ speech_emb(prompt tokens)`.
    func promptInput(text: [Int], promptTokens: [Int], options: RunOptions?) throws -> (values: [Float], count: Int, width: Int) {
        let texts = try embed(text, with: textEmbedding, input: "input_ids", output: "embeddings", options: options)
        let speech = try embed([Self.startOfSequence, Self.taskID] + promptTokens, with: speechEmbedding, input: "token",
                               output: "embedded", options: options)
        let width = speech.width
        guard texts.values.isEmpty || texts.width == width else {
            throw ModelError(.badModel, "the text embedding is \(texts.width) wide and the speech embedding \(width): they do not fit together")
        }
        let values = Array(speech.values[0..<width]) + texts.values + Array(speech.values[width...])
        return (values, values.count / width, width)
    }

    /// A request's token loop. `text`: prompt text ids ++ TTS text ids; `ttsTextCount` sets the
    /// shortest (2×) and longest (20×) speech.
    func generation(text: [Int], ttsTextCount: Int, promptTokens: [Int], seed: UInt64) -> CosyVoice3TokenGeneration {
        CosyVoice3TokenGeneration(model: self, text: text, promptTokens: promptTokens, minLength: 2 * ttsTextCount,
                                  maxLength: 20 * ttsTextCount, seed: seed)
    }
}
