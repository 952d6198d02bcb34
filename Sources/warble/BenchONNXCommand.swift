import ArgumentParser
import Foundation
import ONNXRuntime

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
        let session = try Session(path: model, options: SessionOptions(intraOpThreads: threads, interOpThreads: 1))
        var arrays: [(name: String, shape: [Int], values: [Float])] = []
        for input in session.inputs {
            guard input.elementType == .float32 else {
                throw ValidationError("input \(input) is not float32")
            }
            let shape = input.shape.map { $0.value ?? 1 }
            let count = shape.reduce(1, *)
            arrays.append((input.name, shape, (0..<count).map { Float($0 % 7) * 0.25 }))
        }
        func once() throws -> Float {
            var feeds: [String: Tensor] = [:]
            for array in arrays { feeds[array.name] = try Tensor(array.values, shape: array.shape) }
            var sum: Float = 0
            for output in try session.run(feeds) {
                sum += try output.tensor.scalars(as: Float.self).first ?? 0
            }
            return sum
        }
        for _ in 0..<1_000 { _ = try once() }
        let clock = ContinuousClock()
        var perRun: [Double] = []
        var sink: Float = 0
        for _ in 0..<repeats {
            let elapsed = try clock.measure { for _ in 0..<runs { sink += try once() } }
            perRun.append(elapsed.seconds / Double(runs))
        }
        perRun.sort()
        let median = perRun[perRun.count / 2]
        print(#"{"impl": "swift", "runs": \#(runs), "repeats": \#(repeats), "median_us_per_run": \#(median * 1e6), "checksum": \#(sink.isFinite)}"#)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
