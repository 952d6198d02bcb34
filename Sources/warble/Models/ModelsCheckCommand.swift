import ArgumentParser
import Foundation
import WarbleEngine

/// `warble models check ID`: every graph of an installed model against what its family expects.
struct ModelsCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Open every graph of an installed model and compare its inputs and outputs with what Warble expects.",
        discussion: """
            Prints one row per input and output of each graph the model's family opens: the name, the element \
            types the family accepts, and the type and shape the file declares; then a verdict. Nothing is run. \
            Use it on files from another source (a re-export, a new upload) or to show in a bug report what \
            differs. Exit status 0 when every graph is as expected and the model loads, 1 otherwise. Families \
            that check their graphs in their own code (Piper, Kokoro, Whisper, Silero VAD, the speaker \
            embedder) list no graphs: their verdict is whether the model loads.
            """)

    @Argument(help: "An installed model id (see `warble models`).")
    var id: String

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let check: ModelCheck
        do {
            check = try await EngineFactory.make(threads: 1).checkModel(id)
        } catch {
            SpeechInput.note("error: \(error)")
            throw ExitCode.failure
        }
        if json {
            print(try WarbleJSON.string(check, pretty: true))
        } else {
            print(Self.render(check).joined(separator: "\n"))
        }
        if !check.passes { throw ExitCode.failure }
    }

    static func render(_ check: ModelCheck) -> [String] {
        var lines: [String] = []
        if !check.graphs.isEmpty {
            let rows = check.graphs.flatMap { graph in
                graph.ports.map { port in
                    [graph.file, port.direction == .input ? "in" : "out", port.name, port.expected, port.found, port.matches ? "ok" : "DIFFERS"]
                }
            }
            lines += TextTable.render(header: ["GRAPH", "", "NAME", "EXPECTED", "FOUND", ""], rows: rows, keep: [0, 2])
        }
        let ports = check.graphs.reduce(0) { $0 + $1.ports.count }
        let differences = check.differences
        if check.passes {
            lines.append(check.graphs.isEmpty
                ? "verdict: \(check.model) loads (family \(check.family) checks its graphs while loading; no per-graph table)"
                : "verdict: \(check.model) is as family \(check.family) expects (\(check.graphs.count) graphs, \(ports) inputs and outputs)")
        } else {
            lines.append("verdict: \(check.model) differs from what family \(check.family) expects"
                + (differences.isEmpty ? "" : " (\(differences.count) difference\(differences.count == 1 ? "" : "s"))") + ":")
            lines += differences.map { "  \($0)" }
            if let error = check.loadError { lines.append("  loading it fails: \(error)") }
        }
        return lines
    }
}
