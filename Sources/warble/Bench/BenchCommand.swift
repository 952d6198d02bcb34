import ArgumentParser

/// `warble bench ...`: measurements that the benchmark scripts compare against Python references.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks (scripts/bench-*.sh run these next to the Python references and print ratios).",
        subcommands: [BenchONNXCommand.self, BenchTTSCommand.self, BenchStagesCommand.self,
                      BenchReportCommand.self, BenchASRCommand.self]
    )
}
