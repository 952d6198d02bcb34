/// `warble models check ID`: every graph an installed model's family opens, each input and output the family
/// expects against what the graph declares, and a verdict. A family that checks its graphs in its own code
/// (no per-graph description) reports no graphs; its verdict is then whether it loads.
public struct ModelCheck: Sendable, Equatable, Codable {
    /// One input or output of one graph: what the family expects against what the graph declares.
    public struct Port: Sendable, Equatable, Codable {
        public enum Direction: String, Sendable, Codable { case input, output }
        public var direction: Direction
        public var name: String
        /// What the family accepts ("float or float16"; "present" for an output; "not fed" for an input
        /// the family does not give).
        public var expected: String
        /// What the graph declares ("float16[1, past_len, 64]"), or "missing".
        public var found: String
        public var matches: Bool

        public init(direction: Direction, name: String, expected: String, found: String, matches: Bool) {
            self.direction = direction
            self.name = name
            self.expected = expected
            self.found = found
            self.matches = matches
        }
    }

    /// One graph: its file, the family's name for it, and its ports.
    public struct Graph: Sendable, Equatable, Codable {
        public var file: String
        public var role: String
        public var ports: [Port]
        public var matches: Bool { ports.allSatisfy(\.matches) }

        public init(file: String, role: String, ports: [Port]) {
            self.file = file
            self.role = role
            self.ports = ports
        }
    }

    public var model: String
    public var family: String
    public var graphs: [Graph]
    /// The load's own error, when it failed (after the graphs above were compared).
    public var loadError: String?

    public init(model: String, family: String, graphs: [Graph], loadError: String?) {
        self.model = model
        self.family = family
        self.graphs = graphs
        self.loadError = loadError
    }

    /// Every graph as expected and the model loads.
    public var passes: Bool { loadError == nil && graphs.allSatisfy(\.matches) }

    /// The ports that differ, as "file: input 'x' expected …, found …".
    public var differences: [String] {
        graphs.flatMap { graph in
            graph.ports.filter { !$0.matches }.map { port in
                "\(graph.file) (\(graph.role)): \(port.direction.rawValue) '\(port.name)': expected \(port.expected), found \(port.found)"
            }
        }
    }
}
