import Foundation
import ONNXRuntime
import WarbleSpeech

/// ONNX Runtime as the engine finds it, for `warble doctor`, `warble inspect` and `warble bench`:
/// the commands ask the engine layer and never touch the runtime themselves.
public enum RuntimeDiagnostics {
    /// The library found and a tiny model loaded and run through it.
    public struct SelfCheckReport: Sendable {
        public var version: String
        public var path: String
        public var apiLevel: Int
        public var maxAPILevel: Int
        public var providers: [String]
        public var loadSeconds: Double
        public var runSeconds: Double
    }

    /// Loads ONNX Runtime and runs a built-in model through it; throws what went wrong.
    public static func selfCheck() throws -> SelfCheckReport {
        let check = try SelfCheck.run()
        let library = check.library
        return SelfCheckReport(version: library.version, path: library.path, apiLevel: Int(library.apiLevel),
                               maxAPILevel: Int(library.maxAPILevel), providers: library.availableProviders,
                               loadSeconds: check.loadSeconds, runSeconds: check.runSeconds)
    }

    /// The lines `warble inspect` prints for an ONNX file: source, producer, graph, inputs, outputs, metadata.
    public static func describeModel(at path: String) throws -> [String] {
        let session = try Session(path: path, options: SessionOptions(intraOpThreads: 1))
        var lines = ["model     \(session.source)"]
        let meta = session.metadata
        if !meta.producerName.isEmpty { lines.append("producer  \(meta.producerName)") }
        if !meta.graphName.isEmpty { lines.append("graph     \(meta.graphName)") }
        lines += session.inputs.map { "input     \($0)" }
        lines += session.outputs.map { "output    \($0)" }
        for (key, value) in meta.custom.sorted(by: { $0.key < $1.key }) {
            lines.append("metadata  \(key) = \(value.count > 120 ? String(value.prefix(117)) + "..." : value)")
        }
        return lines
    }

    /// The cost of one run of a small float model, paid as a pipeline pays it (a tensor made from an
    /// array, the run, the output read back): the median over `repeats` of `runs` timed runs, after
    /// 1,000 warm-up runs. Every input must be float32; symbolic dimensions are taken as 1.
    public static func perRunOverhead(model path: String, runs: Int, repeats: Int, threads: Int) throws
        -> (medianSeconds: Double, finite: Bool) {
        let session = try Session(path: path, options: SessionOptions(intraOpThreads: threads, interOpThreads: 1))
        var arrays: [(name: String, shape: [Int], values: [Float])] = []
        for input in session.inputs {
            guard input.elementType == .float32 else {
                throw ModelError(.badInput, "input \(input) is not float32")
            }
            let shape = input.shape.map { $0.value ?? 1 }
            arrays.append((input.name, shape, (0..<shape.reduce(1, *)).map { Float($0 % 7) * 0.25 }))
        }
        func once() throws -> Float {
            var feeds: [String: Tensor] = [:]
            for array in arrays { feeds[array.name] = try Tensor(array.values, shape: array.shape) }
            var sum: Float = 0
            for output in try session.run(feeds) { sum += try output.tensor.scalars(as: Float.self).first ?? 0 }
            return sum
        }
        for _ in 0..<1_000 { _ = try once() }
        let clock = ContinuousClock()
        var perRun: [Double] = []
        var sink: Float = 0
        for _ in 0..<max(1, repeats) {
            let elapsed = try clock.measure { for _ in 0..<runs { sink += try once() } }
            let parts = elapsed.components
            perRun.append((Double(parts.seconds) + Double(parts.attoseconds) / 1e18) / Double(max(1, runs)))
        }
        perRun.sort()
        return (perRun[perRun.count / 2], sink.isFinite)
    }

    /// Counts every model run (and the time inside them) from now until `stopCountingRuns`.
    public static func startCountingRuns() { RunTimer.start() }

    /// The runs and seconds inside ONNX Runtime since `startCountingRuns`.
    public static func stopCountingRuns() -> (runs: Int, seconds: Double) {
        let totals = RunTimer.stop()
        return (totals.runs, totals.seconds)
    }
}
