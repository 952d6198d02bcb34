import ArgumentParser
import Foundation
import WarbleEngine
import WarbleSpeech

/// `warble bench stages FAMILY`: a family's stages timed apart on a model directory, by the family's own
/// benchmark (`RuntimeDiagnostics.benchStages`), next to its Python reference's in tools/bench/.
struct BenchStagesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "stages",
            abstract: "A model family's stages timed apart on a model directory (per-token decode cost, decoders, predicted real-time factor).",
            discussion: "Prints one JSON object, the keys of the family's Python benchmark (tools/bench/FAMILY_bench.py). "
                + "After FAMILY and --model-dir come the family's own options, as --NAME VALUE:\n\n"
                + RuntimeDiagnostics.stageBenchmarks().map(Self.describe).joined(separator: "\n\n")
        )
    }

    @Argument(help: ArgumentHelp("The model family whose stages to time.", valueName: "family"))
    var family: String

    @Option(help: "The model directory (real graphs, or tools/FAMILY/bench_graphs.py's real-size random ones).")
    var modelDir: String

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The family's options (--NAME VALUE, listed below).", valueName: "options"))
    var options: [String] = []

    /// The family's options, `--NAME VALUE` or `--NAME=VALUE`, by name.
    func familyOptions() throws -> [String: String] {
        var values: [String: String] = [:]
        var rest = options[...]
        while let word = rest.popFirst() {
            guard word.hasPrefix("--"), word.count > 2 else {
                throw ValidationError("'\(word)' is not an option: give the family's options as --NAME VALUE")
            }
            let name: String, value: String
            if let equals = word.firstIndex(of: "=") {
                (name, value) = (String(word[word.index(word.startIndex, offsetBy: 2)..<equals]), String(word[word.index(after: equals)...]))
            } else {
                guard let next = rest.popFirst() else { throw ValidationError("\(word) needs a value") }
                (name, value) = (String(word.dropFirst(2)), next)
            }
            guard values[name] == nil else { throw ValidationError("--\(name) is given twice") }
            values[name] = value
        }
        return values
    }

    func run() throws {
        let report: String
        do {
            report = try RuntimeDiagnostics.benchStages(family: family, modelDirectory: URL(fileURLWithPath: modelDir),
                                                        options: try familyOptions())
        } catch let error as ModelError where error.kind == .badInput {
            throw ValidationError(error.message)
        }
        print(report)
    }

    static func describe(_ bench: StageBenchmark) -> String {
        let options = bench.options.map { option in
            "  --\(option.name) " + (option.defaultValue.map { $0.isEmpty ? "(optional)" : "(default: \($0))" } ?? "(required)")
                + ": " + option.help
        }
        return ([bench.family + ": " + bench.abstract] + options + [bench.discussion]).joined(separator: "\n")
    }
}
