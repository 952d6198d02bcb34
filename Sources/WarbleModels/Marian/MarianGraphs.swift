import Foundation
import ONNXRuntime
import WarbleSpeech

/// The Marian encoder (`tools/marian/convert.py`, contract in tools/marian/README.md):
/// `input_ids`, `attention_mask` [B, S] → `encoder_out` [B, S, dim].
struct MarianEncoder: Sendable {
    let graph: ModelGraph

    init(url: URL, options: SessionOptions) throws {
        graph = try ModelGraph(url, model: "Marian", role: "encoder",
                               inputs: [.index("input_ids"), .index("attention_mask")], outputs: ["encoder_out"], options: options)
    }

    /// The encoder output of one source row (batch 1), kept as ONNX Runtime returned it.
    func encode(_ ids: [Int], mask: Tensor, options: RunOptions?) throws -> Tensor {
        let outputs = try graph.run(["input_ids": try graph.indices(ids, shape: [1, ids.count], for: "input_ids"),
                                     "attention_mask": mask], options: options)
        let encoded = try outputs.tensor("encoder_out")
        guard encoded.shape.count == 3, encoded.shape[0] == 1, encoded.shape[1] == ids.count else {
            throw ModelError(.badModel, "Marian's encoder gave encoder_out of shape \(encoded.shape) for \(ids.count) tokens")
        }
        return encoded
    }
}

/// The Marian one-step decoder: `prev_ids` [B, 1] (-1 at the first step), `position` [1],
/// `state_{i}` [B, dim] (one SSRU cell state per decoder layer, read from the session), `encoder_out`,
/// `attention_mask`, `shortlist` [K] → `logits` [B, K], `new_state_{i}`.
struct MarianDecoder: Sendable {
    let graph: ModelGraph
    /// The state inputs in layer order, and their width.
    let states: [String]
    let stateWidth: Int

    init(url: URL, options: SessionOptions) throws {
        let session = try Session(contentsOf: url, options: options)
        let states = session.inputs.map(\.name).filter { $0.hasPrefix("state_") }
            .sorted { (Int($0.dropFirst(6)) ?? 0) < (Int($1.dropFirst(6)) ?? 0) }
        guard !states.isEmpty else {
            throw ModelError(.badModel, "\(url.lastPathComponent) is not Marian's decoder: it has no state_{i} inputs (inputs: "
                + session.inputs.map(\.name).joined(separator: ", ") + "); convert the model with tools/marian/convert.py")
        }
        graph = try ModelGraph(
            session: session, file: url.lastPathComponent, model: "Marian", role: "decoder",
            inputs: [.index("prev_ids"), .index("position"), .index("attention_mask"), .index("shortlist"), .float("encoder_out")]
                + states.map { .float($0) },
            outputs: ["logits"] + states.map { "new_\($0)" })
        guard let width = session.input(named: states[0])?.shape.last, case .fixed(let size) = width, size > 0 else {
            throw ModelError(.badModel, "\(url.lastPathComponent): Marian's decoder input \(states[0]) has no fixed width")
        }
        self.states = states
        stateWidth = size
    }

    func zeroStates() throws -> [Tensor] {
        try states.map { try graph.floats([Float](repeating: 0, count: stateWidth), shape: [1, stateWidth], for: $0) }
    }

    /// One step: the logits over `shortlist` and the next states.
    func step(previous: Int, position: Int, states: [Tensor], encoded: Tensor, mask: Tensor, shortlist: Tensor,
              options: RunOptions?) throws -> (logits: [Float], states: [Tensor]) {
        var feeds: [String: Tensor] = [
            "prev_ids": try graph.indices([previous], shape: [1, 1], for: "prev_ids"),
            "position": try graph.indices([position], shape: [1], for: "position"),
            "encoder_out": encoded, "attention_mask": mask, "shortlist": shortlist,
        ]
        for (name, state) in zip(self.states, states) { feeds[name] = state }
        let outputs = try graph.run(feeds, options: options)
        let (logits, shape) = try ModelTensors.read(outputs, "logits")
        guard shape.count == 2, shape[0] == 1, shape[1] == shortlist.shape[0] else {
            throw ModelError(.badModel, "Marian's decoder gave logits of shape \(shape) for a shortlist of \(shortlist.shape[0])")
        }
        return (logits, try self.states.map { try outputs.tensor("new_\($0)") })
    }
}
