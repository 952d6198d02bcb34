import Testing

/// Prometheus' text format read back: every sample as `name{labels}` (exactly as written) and its value;
/// `# HELP` and `# TYPE` lines are checked for shape and kept apart.
struct PrometheusText {
    var samples: [String: Double] = [:]
    var types: [String: String] = [:]

    init(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                try #require(parts.count == 4, "a TYPE line: \(line)", sourceLocation: sourceLocation)
                types[String(parts[2])] = String(parts[3])
                continue
            }
            if line.hasPrefix("#") { continue }
            let space = try #require(line.lastIndex(of: " "), "a sample line: \(line)", sourceLocation: sourceLocation)
            let value = try #require(Double(line[line.index(after: space)...]), "a number in: \(line)", sourceLocation: sourceLocation)
            samples[String(line[..<space])] = value
        }
    }

    /// The samples of metric `name` (with or without labels).
    func series(_ name: String) -> [String: Double] {
        samples.filter { $0.key == name || $0.key.hasPrefix(name + "{") }
    }
}
