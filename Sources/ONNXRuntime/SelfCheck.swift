import Foundation

/// Proves that the loaded ONNX Runtime works: loads a two-node model from memory, runs it and
/// checks the numbers it computes.
public enum SelfCheck {
    public struct Report: Sendable {
        public let library: ONNXRuntimeLibrary
        /// Time to create the session.
        public let loadSeconds: Double
        /// Time of one run (median of several).
        public let runSeconds: Double
    }

    public static func run() throws -> Report {
        let library = try ONNXRuntimeLibrary.shared()
        let clock = ContinuousClock()
        var session: Session?
        let load = try clock.measure {
            session = try Session(bytes: SelfCheckModel.bytes, options: SessionOptions(intraOpThreads: 1))
        }
        guard let session else { throw ONNXRuntimeError(.runtime, "the self-check model did not load") }
        let x: [Float] = [-1.5, 0, 0.25, 3, 1e6]
        var times: [Double] = []
        for _ in 0..<5 {
            var y: [Float] = []
            let time = try clock.measure {
                y = try session.run(["x": try Tensor(x)]).tensor("y").scalars(as: Float.self)
            }
            times.append(time.seconds)
            let want = x.map { $0 * 2 + 1 }
            guard y == want else {
                throw ONNXRuntimeError(.runtime, "the self-check model computed \(y), expected \(want)")
            }
        }
        return Report(library: library, loadSeconds: load.seconds, runSeconds: times.sorted()[times.count / 2])
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
