/// The tensors one run produced, in the order they were asked for.
public struct RunOutputs: Sendable, Sequence {
    public let names: [String]
    public let tensors: [Tensor]

    /// The output called `name`, or nil if it was not asked for.
    public subscript(_ name: String) -> Tensor? {
        names.firstIndex(of: name).map { tensors[$0] }
    }

    /// The output called `name`; an error naming the outputs there are when it is absent.
    public func tensor(_ name: String) throws -> Tensor {
        guard let tensor = self[name] else {
            throw ONNXRuntimeError(.unknownName, "no output '\(name)' in this run; it produced: \(names.joined(separator: ", "))")
        }
        return tensor
    }

    public func makeIterator() -> some IteratorProtocol<(name: String, tensor: Tensor)> {
        zip(names, tensors).lazy.map { (name: $0.0, tensor: $0.1) }.makeIterator()
    }
}
