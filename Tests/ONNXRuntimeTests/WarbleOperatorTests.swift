import CWarbleOperators
import Foundation
import Testing
@testable import ONNXRuntime
import WarbleTestSupport

/// Warble's own operators (Snake, AdaIN): the kernels against double precision, and graphs rewritten
/// by tools/models/fuse_snake.py and fuse_adain.py against ONNX Runtime running them unfused.
@Suite("Warble operators")
struct WarbleOperatorTests {
    /// x + scale * sin(alpha * x)^2 within 1.2e-7 * max(1, |x|) + 4e-7 * scale of double precision for
    /// |x| up to 2,000 (an ulp of the result, and a few of scale * sin^2).
    @Test func snakeKernelMatchesDoublePrecision() {
        let wide: [Float] = (0..<40_001).map { (i: Int) -> Float in Float(-2000.0 + Double(i) * 0.1) }
        let near: [Float] = (0..<10_001).map { (i: Int) -> Float in Float(-5.0 + Double(i) * 0.001) }
        let xs = wide + near
        for (alpha, scale) in [(Float(1.2175277), Float(0.8213365)), (0.31, 3.2), (2.0, 0.5)] {
            var ys = [Float](repeating: .nan, count: xs.count)
            xs.withUnsafeBufferPointer { x in
                ys.withUnsafeMutableBufferPointer { y in warble_snake_f32(x.baseAddress!, y.baseAddress!, x.count, alpha, scale) }
            }
            var worst = 0.0
            for (x, y) in zip(xs, ys) {
                let s: Double = sin(Double(alpha * x))
                let exact: Double = Double(x) + Double(scale) * s * s
                let bound: Double = 1.2e-7 * max(1, abs(Double(x))) + 4e-7 * Double(scale)
                worst = max(worst, abs(Double(y) - exact) / bound)
            }
            #expect(worst <= 1, "alpha \(alpha) scale \(scale): worst error \(worst) of the bound")
        }
    }

    static func input(time: Int) -> [Float] {
        (0..<(4 * time)).map { (i: Int) -> Float in
            let wave: Double = sin(Double(i) * 0.37) * 3
            return Float(wave + Double(i % 7) * 0.25 - 0.8)
        }
    }

    /// The fused graph gives what ONNX Runtime's Mul, Sin, Pow, Mul, Add give, within 2e-6 relative.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func fusedGraphMatchesTheUnfusedOne() throws {
        var options = SessionOptions(intraOpThreads: 1)
        let reference = try Session(path: try Fixtures.path("snake_unfused.onnx"), options: options)
        options.warbleOperators = true
        let fused = try Session(path: try Fixtures.path("snake_fused.onnx"), options: options)
        for time in [1, 15, 16, 17, 1000] {
            let x = try Tensor(Self.input(time: time), shape: [1, 4, time])
            let want = try reference.run(["x": x]).tensor("y").scalars(as: Float.self)
            let got = try fused.run(["x": x]).tensor("y")
            #expect(got.shape == [1, 4, time])
            let values = try got.scalars(as: Float.self)
            for (a, b) in zip(values, want) {
                #expect(abs(a - b) <= 2e-6 * max(1, abs(b)), "time \(time): \(a) vs \(b)")
            }
        }
    }

    /// Without the operators registered, the rewritten graph does not load, and the error says so.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func fusedGraphNeedsTheOperators() throws {
        let path = try Fixtures.path("snake_fused.onnx")
        let error = #expect(throws: ONNXRuntimeError.self) { _ = try Session(path: path) }
        #expect(error?.message.contains("Snake") == true, "\(error?.message ?? "")")
    }

    /// A Snake node whose alpha does not hold one value per channel gives NaN (the kernel cannot
    /// report errors at this API level) rather than reading past the end.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func mismatchedAlphaGivesNaN() throws {
        let session = try Session(path: try Fixtures.path("snake_bad_alpha.onnx"), options: SessionOptions(warbleOperators: true))
        let y = try session.run(["x": try Tensor(Self.input(time: 8), shape: [1, 4, 8])]).tensor("y").scalars(as: Float.self)
        #expect(y.count == 32 && y.allSatisfy(\.isNaN))
    }

    /// AdaIN within 1e-5 of double precision on rows of 1 to 5,000 values, including a constant
    /// row (variance 0: only epsilon divides) and a large offset (mean 1,000, spread 1).
    @Test func adainKernelMatchesDoublePrecision() {
        for count in [1, 2, 15, 16, 17, 1000, 5000] {
            for offset in [0.0, 1000.0] {
                let xs: [Float] = (0..<count).map { (i: Int) -> Float in
                    Float(offset + sin(Double(i) * 0.7) + Double(i % 5) * 0.1)
                }
                var ys = [Float](repeating: .nan, count: count)
                xs.withUnsafeBufferPointer { x in
                    ys.withUnsafeMutableBufferPointer { y in
                        warble_adain_f32(x.baseAddress!, y.baseAddress!, count, 1.3, -0.2, 1e-5)
                    }
                }
                let mean: Double = xs.reduce(0.0) { $0 + Double($1) } / Double(count)
                let variance: Double = xs.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(count)
                let factor: Double = 1.3 / (variance + 1e-5).squareRoot()
                var worst = 0.0
                for (x, y) in zip(xs, ys) {
                    worst = max(worst, abs(Double(y) - ((Double(x) - mean) * factor - 0.2)))
                }
                // A float mean of values near 1,000 is good to ~6e-5; the normalised error scales with it.
                let bound = offset == 0 ? 1e-5 : 2e-4 * factor
                #expect(worst <= bound, "\(count) values around \(offset): worst error \(worst)")
            }
        }
    }

    /// The fused AdaIN graph gives what ONNX Runtime's ten nodes give, within 1e-5.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func fusedAdainMatchesTheUnfusedGraph() throws {
        var options = SessionOptions(intraOpThreads: 1)
        let reference = try Session(path: try Fixtures.path("adain_unfused.onnx"), options: options)
        options.warbleOperators = true
        let fused = try Session(path: try Fixtures.path("adain_fused.onnx"), options: options)
        let scale = try Tensor([Float(1.2), 0.7, -0.4], shape: [1, 3, 1])
        let shift = try Tensor([Float(0.1), -2, 0.5], shape: [1, 3, 1])
        for time in [1, 7, 16, 1000] {
            let feeds = ["x": try Tensor(Self.input(time: time).prefix(3 * time).map { $0 }, shape: [1, 3, time]),
                         "scale": scale, "shift": shift]
            let want = try reference.run(feeds).tensor("y").scalars(as: Float.self)
            let got = try fused.run(feeds).tensor("y").scalars(as: Float.self)
            #expect(got.count == want.count)
            for (a, b) in zip(got, want) {
                #expect(abs(a - b) <= 1e-5 * max(1, abs(b)), "time \(time): \(a) vs \(b)")
            }
        }
        // A scale of the wrong size is refused before the kernel runs.
        let error = #expect(throws: ONNXRuntimeError.self) {
            _ = try fused.run(["x": try Tensor([Float](repeating: 1, count: 12), shape: [1, 3, 4]),
                               "scale": try Tensor([Float(1), 2], shape: [1, 2, 1]), "shift": shift])
        }
        #expect(error?.message.contains("scale") == true)
    }

    /// Many sessions share the one registered domain.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func sessionsShareTheOperators() throws {
        let path = try Fixtures.path("snake_fused.onnx")
        let sessions = try (0..<4).map { _ in try Session(path: path, options: SessionOptions(warbleOperators: true)) }
        let x = try Tensor(Self.input(time: 5), shape: [1, 4, 5])
        let first = try sessions[0].run(["x": x]).tensor("y").scalars(as: Float.self)
        for session in sessions.dropFirst() {
            #expect(try session.run(["x": x]).tensor("y").scalars(as: Float.self) == first)
        }
    }
}
