import ONNXRuntime
import WarbleSpeech

/// The per-step inputs of a decoder-only LM besides its tokens: positions and the attention mask,
/// made in the integer type the session declares for them (i64 usually, i32 in some exports).
public enum StepInputs {
    /// `position_ids` `[batch, count]`: start, start + 1, … for every row.
    public static func positions(start: Int, count: Int, batch: Int, as type: ElementType = .int64) throws -> Tensor {
        try integers(Array(repeating: Array(start..<(start + count)), count: batch).flatMap { $0 }, shape: [batch, count], as: type)
    }

    /// `attention_mask` `[batch, total]` of ones: every past and new position is attended to.
    public static func attentionMask(total: Int, batch: Int, as type: ElementType = .int64) throws -> Tensor {
        try integers(Array(repeating: 1, count: total * batch), shape: [batch, total], as: type)
    }

    /// `input_ids` `[batch, count]`.
    public static func tokens(_ rows: [[Int]], as type: ElementType = .int64) throws -> Tensor {
        let count = rows.first?.count ?? 0
        precondition(rows.allSatisfy { $0.count == count }, "every row has the same length")
        return try integers(rows.flatMap { $0 }, shape: [rows.count, count], as: type)
    }

    /// The element type `session` declares for input `name` (i64 when it has no such input).
    public static func type(of name: String, in session: Session) -> ElementType {
        session.input(named: name)?.elementType ?? .int64
    }

    private static func integers(_ values: [Int], shape: [Int], as type: ElementType) throws -> Tensor {
        switch type {
        case .int64: return try Tensor(values.map(Int64.init), shape: shape)
        case .int32: return try Tensor(values.map { Int32(clamping: $0) }, shape: shape)
        default: throw ModelError(.badModel, "step inputs of \(type) are not supported (i64 or i32)")
        }
    }
}
