import Foundation
import WarbleSpeech

/// A family that times its own stages on a model directory (`warble bench stages FAMILY`, through
/// `RuntimeDiagnostics.benchStages`), next to the Python reference's benchmark in its tools/ folder.
public protocol StageBenchmarking: Sendable {
    /// One line: what the benchmark measures.
    var stageBenchAbstract: String { get }
    /// What it runs and what each key of its report means.
    var stageBenchDiscussion: String { get }
    /// Its options besides `--model-dir`.
    var stageBenchOptions: [StageBenchOption] { get }
    /// Runs the benchmark on `modelDirectory` and returns its report: one JSON object, keys sorted.
    /// - Throws: `ModelError(.badInput, …)` for options out of range; other errors from the run.
    func benchStages(modelDirectory: URL, options: StageBenchOptions) throws -> String
}

/// One option of a family's stage benchmark: `--NAME VALUE`.
public struct StageBenchOption: Sendable, Equatable {
    public let name: String
    /// nil: the option must be given.
    public let defaultValue: String?
    public let help: String

    public init(_ name: String, default defaultValue: String?, help: String) {
        (self.name, self.defaultValue, self.help) = (name, defaultValue, help)
    }
}

/// The options given to a stage benchmark, with the family's defaults filled in.
public struct StageBenchOptions: Sendable {
    let values: [String: String]

    /// Refuses an option the family does not take, and one it needs that is missing.
    public init(_ given: [String: String], declared: [StageBenchOption]) throws {
        let names = declared.map(\.name)
        if let unknown = given.keys.sorted().first(where: { !names.contains($0) }) {
            throw ModelError(.badInput, "unknown option --\(unknown) (this benchmark takes "
                + (["model-dir"] + names).map { "--" + $0 }.joined(separator: ", ") + ")")
        }
        var values = given
        for option in declared where values[option.name] == nil {
            guard let value = option.defaultValue else { throw ModelError(.badInput, "missing --\(option.name): \(option.help)") }
            values[option.name] = value
        }
        self.values = values
    }

    /// The option's text (nil when it has no default and was not given).
    public func string(_ name: String) -> String? { values[name].flatMap { $0.isEmpty ? nil : $0 } }

    /// The option as a whole number.
    public func int(_ name: String) throws -> Int {
        guard let text = values[name], let value = Int(text) else {
            throw ModelError(.badInput, "--\(name) takes a whole number (got '\(values[name] ?? "")')")
        }
        return value
    }
}
