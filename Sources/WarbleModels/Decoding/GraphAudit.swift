import Foundation
import ONNXRuntime
import WarbleSpeech

/// What `warble models check` sees: every graph a family opens while loading, each input and output it
/// expects against what the session declares. While an audit is current (`GraphAudit.$current`), a graph
/// that differs is recorded instead of refused, so one check shows every difference at once; the model
/// loaded under an audit is only looked at, never run.
public final class GraphAudit: @unchecked Sendable {
    @TaskLocal static var current: GraphAudit?

    public typealias Port = ModelCheck.Port
    public typealias Graph = ModelCheck.Graph

    private let lock = NSLock()
    private var recorded: [Graph] = []

    public init() {}

    public var graphs: [Graph] { lock.withLock { recorded } }

    func record(_ graph: Graph) { lock.withLock { recorded.append(graph) } }

    /// Runs `load` with this audit current: the graphs it opens are recorded, those that differ included.
    public func observing<T>(_ load: () throws -> T) rethrows -> T {
        try GraphAudit.$current.withValue(self, operation: load)
    }

    /// The comparison of `session` with what a family expects of it.
    static func compare(_ session: Session, file: String, model: String, role: String,
                        inputs: [ModelGraph.Input], outputs: [String]) -> Graph {
        var ports: [Port] = inputs.map { input in
            let expected = input.types.map(\.description).sorted().joined(separator: " or ")
            guard let info = session.input(named: input.name) else {
                return Port(direction: .input, name: input.name, expected: expected, found: "missing", matches: false)
            }
            return Port(direction: .input, name: input.name, expected: expected, found: describe(info),
                        matches: input.types.contains(info.elementType))
        }
        let fed = Set(inputs.map(\.name))
        for info in session.inputs where !fed.contains(info.name) {
            ports.append(Port(direction: .input, name: info.name, expected: "not fed by \(model)", found: describe(info), matches: false))
        }
        for name in outputs {
            let found = session.output(named: name).map(describe) ?? "missing"
            ports.append(Port(direction: .output, name: name, expected: "present", found: found, matches: found != "missing"))
        }
        return Graph(file: file, role: role, ports: ports)
    }

    private static func describe(_ info: TensorInfo) -> String { info.typeDescription }
}
