import Foundation
import ONNXRuntime
import WarbleSpeech

/// The key/value cache of an autoregressive session, fed back step after step in exactly the element
/// type and layout the session reports (an f16 cache stays f16: its bytes are moved, never converted
/// or reinterpreted). One value per request (or per beam group); it dies with the request.
///
/// Layouts: any number of entries, each a past input, the present output that replaces it, and the
/// axes of its batch and its sequence. Per-layer caches (`past_key_values.{i}.key` / `.value`,
/// Whisper's `past_k_{i}`) have one entry per tensor; a stacked cache (CosyVoice's one
/// `[layers × 2, batch, heads, sequence, dim]` tensor) has one entry.
public struct KVCache {
    /// One cached tensor.
    public struct Entry: Sendable, Equatable {
        public var past: String
        public var present: String
        public var batchAxis: Int
        public var sequenceAxis: Int

        public init(past: String, present: String, batchAxis: Int = 0, sequenceAxis: Int) {
            self.past = past
            self.present = present
            self.batchAxis = batchAxis
            self.sequenceAxis = sequenceAxis
        }
    }

    public let entries: [Entry]
    private var tensors: [Tensor]
    /// Positions held.
    public private(set) var length = 0
    /// Rows (beams or samples).
    public private(set) var batch: Int

    /// An empty cache (sequence length 0) for `batch` rows, each tensor with the element type and the
    /// fixed dimensions `session` declares for its past input; a clear error when the session has no
    /// such input, or a dimension other than batch and sequence is not fixed.
    public init(session: Session, entries: [Entry], batch: Int) throws {
        var tensors: [Tensor] = []
        for entry in entries {
            guard let info = session.input(named: entry.past) else {
                throw ModelError(.badModel, "the model has no cache input '\(entry.past)' (inputs: "
                    + session.inputs.map(\.name).joined(separator: ", ") + ")")
            }
            guard session.outputs.contains(where: { $0.name == entry.present }) else {
                throw ModelError(.badModel, "the model has no cache output '\(entry.present)'")
            }
            var shape: [Int] = []
            for (axis, dimension) in info.shape.enumerated() {
                if axis == entry.batchAxis { shape.append(batch) } else if axis == entry.sequenceAxis { shape.append(0) } else {
                    guard let size = dimension.value else {
                        throw ModelError(.badModel, "cache input \(info) has a free dimension at axis \(axis); only its batch "
                            + "(\(entry.batchAxis)) and sequence (\(entry.sequenceAxis)) axes may be free")
                    }
                    shape.append(size)
                }
            }
            tensors.append(try RawTensor.zeros(elementType: info.elementType, shape: shape))
        }
        self.entries = entries
        self.tensors = tensors
        self.batch = batch
    }

    /// An empty cache of tensors the caller made (sequence length 0 on each entry's sequence axis).
    public init(entries: [Entry], empty: [Tensor], batch: Int) {
        precondition(entries.count == empty.count, "one tensor per cache entry")
        self.entries = entries
        self.tensors = empty
        self.batch = batch
    }

    /// Per-layer entries named the Hugging Face way: `past_key_values.{i}.key` → `present.{i}.key`
    /// (and `.value`), batch axis 0, sequence axis 2.
    public static func huggingFaceEntries(layers: Int) -> [Entry] {
        (0..<layers).flatMap { layer in
            ["key", "value"].map { kind in
                Entry(past: "past_key_values.\(layer).\(kind)", present: "present.\(layer).\(kind)", sequenceAxis: 2)
            }
        }
    }

    /// How many layers a session's per-layer cache has: the `past_key_values.{i}.key` inputs it declares.
    public static func huggingFaceLayers(of session: Session) -> Int {
        session.inputs.filter { $0.name.hasPrefix("past_key_values.") && $0.name.hasSuffix(".key") }.count
    }

    /// The element type of each cached tensor (what the session declared).
    public var elementTypes: [ElementType] { tensors.map(\.elementType) }

    /// The cache's tensors as the next step's inputs.
    public func feed(into feeds: inout [String: Tensor]) {
        for (entry, tensor) in zip(entries, tensors) { feeds[entry.past] = tensor }
    }

    /// The present outputs of a step, which become the past; `added` positions were run.
    public mutating func update(from outputs: RunOutputs, added: Int) throws {
        var next: [Tensor] = []
        for (entry, old) in zip(entries, tensors) {
            let present = try outputs.tensor(entry.present)
            guard present.elementType == old.elementType else {
                throw ModelError(.badModel, "'\(entry.present)' came back as \(present.elementType), the cache holds \(old.elementType)")
            }
            guard present.shape.count == old.shape.count, present.shape[entry.sequenceAxis] == length + added else {
                throw ModelError(.badModel, "'\(entry.present)' has shape \(present.shape); expected \(length + added) "
                    + "positions on axis \(entry.sequenceAxis)")
            }
            next.append(present)
        }
        tensors = next
        length += added
    }

    /// Keeps the rows `rows` (in that order; repeats allowed): the beams that survived a step, or one
    /// prompt row copied to every sample.
    public mutating func reorder(_ rows: [Int]) throws {
        if rows == Array(0..<batch) { return }
        tensors = try zip(entries, tensors).map { entry, tensor in
            try RawTensor.gather(tensor, axis: entry.batchAxis, indices: rows)
        }
        batch = rows.count
    }
}
