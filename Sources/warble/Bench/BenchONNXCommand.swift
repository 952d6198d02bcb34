import ArgumentParser
import Foundation
import WarbleEngine

/// `warble bench onnx MODEL`: the cost of one run of a small float model, the way a pipeline pays it
/// (a tensor made from a Swift array, the run, the output read back into an array).
struct BenchONNXCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onnx",
        abstract: "Per-run overhead of ONNX Runtime through the Swift binding on a small model.",
        discussion: "Every input must be float32; symbolic dimensions are taken as 1. Prints JSON."
    )

    @Argument(help: "An .onnx model with float32 inputs.")
    var model: String

    @Option(help: "Timed runs per repetition.")
    var runs = 20_000

    @Option(help: "Repetitions (the median is reported).")
    var repeats = 5

    @Option(help: "Intra-op threads.")
    var threads = 1

    func run() throws {
        let (median, finite) = try RuntimeDiagnostics.perRunOverhead(model: model, runs: runs, repeats: repeats, threads: threads)
        print(#"{"impl": "swift", "runs": \#(runs), "repeats": \#(repeats), "median_us_per_run": \#(median * 1e6), "checksum": \#(finite)}"#)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
