import Foundation
import ONNXRuntime
import WarbleSpeech

/// One ONNX graph of a model family, checked on opening against the inputs the spec gives it
/// (names and element types from the session's metadata), with helpers that make float and index
/// inputs in the element type the session declares and read float outputs of f32 or f16.
struct ModelGraph: Sendable {
    /// An input the graph must have: its name and the element types accepted.
    struct Input: Sendable {
        var name: String
        var types: Set<ElementType>

        static func float(_ name: String) -> Input { Input(name: name, types: [.float32, .float16]) }
        static func index(_ name: String) -> Input { Input(name: name, types: [.int64, .int32]) }
        static func exact(_ name: String, _ type: ElementType) -> Input { Input(name: name, types: [type]) }
    }

    let session: Session
    let file: String
    let role: String
    /// The model's name in messages ("CosyVoice 3").
    let model: String

    init(_ url: URL, model: String, role: String, inputs: [Input], outputs: [String], options: SessionOptions) throws {
        let session = try Session(contentsOf: url, options: options)
        try self.init(session: session, file: url.lastPathComponent, model: model, role: role, inputs: inputs, outputs: outputs)
    }

    init(session: Session, file: String, model: String, role: String, inputs: [Input], outputs: [String]) throws {
        self.session = session
        self.file = file
        self.model = model
        self.role = role
        if let audit = GraphAudit.current {
            // `warble models check`: every difference recorded, none refused (the model is never run).
            audit.record(GraphAudit.compare(session, file: file, model: model, role: role, inputs: inputs, outputs: outputs))
            return
        }
        let expected = inputs.map { "\($0.name) (\($0.types.map(\.description).sorted().joined(separator: " or ")))" }
            .joined(separator: ", ")
        for input in inputs {
            guard let info = session.input(named: input.name) else {
                throw ModelError(.badModel, "\(file) is not \(model)'s \(role): it has no input '\(input.name)'. Expected inputs: "
                    + expected + "; it has: " + session.inputs.map(\.description).joined(separator: ", "))
            }
            guard input.types.contains(info.elementType) else {
                throw ModelError(.badModel, "\(file) is not \(model)'s \(role): its input '\(input.name)' is \(info.elementType). "
                    + "Expected inputs: " + expected)
            }
        }
        for output in outputs where session.output(named: output) == nil {
            throw ModelError(.badModel, "\(file) is not \(model)'s \(role): it has no output '\(output)' (outputs: "
                + session.outputs.map(\.name).joined(separator: ", ") + ")")
        }
    }

    func elementType(of input: String) -> ElementType { session.input(named: input)?.elementType ?? .float32 }

    /// `values` as input `name`, in its declared element type (f32, or f16 converted).
    func floats(_ values: [Float], shape: [Int], for name: String) throws -> Tensor {
        try ModelTensors.floats(values, shape: shape, as: elementType(of: name))
    }

    /// Token ids as input `name`, in its declared integer type.
    func indices(_ values: [Int], shape: [Int], for name: String) throws -> Tensor {
        switch elementType(of: name) {
        case .int32: try Tensor(values.map { Int32(clamping: $0) }, shape: shape)
        default: try Tensor(values.map(Int64.init), shape: shape)
        }
    }

    func run(_ feeds: [String: Tensor], options: RunOptions?) throws -> RunOutputs {
        try session.run(feeds, options: options)
    }
}

/// Float tensors in f32 or f16.
enum ModelTensors {
    static func floats(_ values: [Float], shape: [Int], as type: ElementType) throws -> Tensor {
        switch type {
        case .float32: return try Tensor(values, shape: shape)
        #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
        case .float16: return try Tensor(values.map { Float16($0) }, shape: shape)
        #endif
        default: throw ModelError(.badModel, "a float input of \(type) is not supported (float or float16)")
        }
    }

    /// The values of a float output (f32, or f16 widened).
    static func read(_ tensor: Tensor) throws -> [Float] {
        switch tensor.elementType {
        case .float32: return try tensor.scalars(as: Float.self)
        #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
        case .float16: return try tensor.scalars(as: Float16.self).map(Float.init)
        #endif
        default: throw ModelError(.badModel, "an output of \(tensor.elementType) was read as floats")
        }
    }

    /// The last row of float output `name` ([…, rows, width]; f32, or f16 widened) and the output's
    /// shape, read in place: a prefill's logits hold a row per prompt token (313 × 194,256 floats,
    /// 243 MB, for NeuTTS Nano) and only the last is sampled from, so the rest is never copied.
    static func lastRow(_ outputs: RunOutputs, _ name: String) throws -> (values: [Float], shape: [Int]) {
        let tensor = try outputs.tensor(name)
        let shape = tensor.shape
        guard let width = shape.last, width > 0, tensor.count >= width else {
            throw ModelError(.badModel, "'\(name)' has shape \(shape): no row to read")
        }
        switch tensor.elementType {
        case .float32:
            return (try tensor.withUnsafeBufferPointer(of: Float.self) { Array($0[($0.count - width)...]) }, shape)
        #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
        case .float16:
            return (try tensor.withUnsafeBufferPointer(of: Float16.self) { $0[($0.count - width)...].map(Float.init) }, shape)
        #endif
        default: throw ModelError(.badModel, "an output of \(tensor.elementType) was read as floats")
        }
    }

    static func read(_ outputs: RunOutputs, _ name: String) throws -> (values: [Float], shape: [Int]) {
        let tensor = try outputs.tensor(name)
        return (try read(tensor), tensor.shape)
    }
}
