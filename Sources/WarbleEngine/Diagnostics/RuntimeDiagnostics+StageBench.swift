import Foundation
import WarbleModels
import WarbleSpeech

/// A family's stage benchmark as `warble bench stages` lists it.
public struct StageBenchmark: Sendable {
    public struct Option: Sendable {
        public let name: String
        /// nil: the option must be given.
        public let defaultValue: String?
        public let help: String
    }

    public let family: String
    public let abstract: String
    public let discussion: String
    public let options: [Option]
}

extension RuntimeDiagnostics {
    /// The families that time their own stages (`StageBenchmarking`), by name.
    public static func stageBenchmarks() -> [StageBenchmark] {
        ModelFamilies.builtIn.all.compactMap { family in
            (family as? any StageBenchmarking).map { bench in
                StageBenchmark(family: family.name, abstract: bench.stageBenchAbstract, discussion: bench.stageBenchDiscussion,
                               options: bench.stageBenchOptions.map { .init(name: $0.name, defaultValue: $0.defaultValue, help: $0.help) })
            }
        }
    }

    /// Runs family `family`'s stage benchmark on `modelDirectory` with `options` (name → value, without the
    /// dashes) and returns its report, one JSON object.
    /// - Throws: `ModelError(.badInput, …)` for an unknown family or option, or an option out of range.
    public static func benchStages(family: String, modelDirectory: URL, options: [String: String]) throws -> String {
        guard let found = ModelFamilies.builtIn.family(named: family), let bench = found as? any StageBenchmarking else {
            throw ModelError(.badInput, "no stage benchmark for '\(family)' (families with one: "
                + stageBenchmarks().map(\.family).joined(separator: ", ") + ")")
        }
        return try bench.benchStages(modelDirectory: modelDirectory,
                                     options: try StageBenchOptions(options, declared: bench.stageBenchOptions))
    }
}
