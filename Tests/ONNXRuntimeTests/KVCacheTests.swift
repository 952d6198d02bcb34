import Testing
@testable import ONNXRuntime
import WarbleTestSupport

/// A cache that grows by one step per run, fed back from the previous run's output without a copy.
@Suite(.needs(fixtures: "onnx"), .needsRuntime) struct KVCacheTests {
    @Test func float32CacheGrowsAcrossRuns() throws {
        let session = try Session(path: try Fixtures.path("kv_cache_f32.onnx"))
        #expect(session.input(named: "past")?.shape == [.fixed(1), .symbolic("past_len"), .fixed(8)])
        var past = try Tensor([Float](), shape: [1, 0, 8])
        var steps: [[Float]] = []
        for step in 1...6 {
            let token = (0..<8).map { Float(step * 10 + $0) }
            steps.append(token)
            let out = try session.run(["token": try Tensor(token, shape: [1, 1, 8]), "past": past])
            let present = try out.tensor("present")
            #expect(present.shape == [1, step, 8])
            #expect(try present.scalars(as: Float.self) == steps.flatMap { $0 })
            let mean = try out.tensor("mean").scalars(as: Float.self)
            let want = (0..<8).map { column in steps.map { $0[column] }.reduce(0, +) / Float(step) }
            #expect(zip(mean, want).allSatisfy { abs($0 - $1) < 1e-4 })
            past = present
        }
    }

    #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
    @Test func float16CacheKeepsItsType() throws {
        let session = try Session(path: try Fixtures.path("kv_cache_f16.onnx"))
        #expect(session.input(named: "past")?.elementType == .float16)
        var past = try Tensor([Float16](), shape: [1, 0, 8])
        for step in 1...4 {
            let token = [Float16](repeating: Float16(step), count: 8)
            let out = try session.run(["token": try Tensor(token, shape: [1, 1, 8]), "past": past])
            past = try out.tensor("present")
            #expect(past.elementType == .float16)
            #expect(past.shape == [1, step, 8])
            let mean = try out.tensor("mean").scalars(as: Float16.self)
            // Mean of 1...step, exact in float16 for these values (tolerance 1e-3).
            #expect(mean.allSatisfy { abs(Float($0) - Float(step + 1) / 2) < 1e-3 })
        }
    }
    #endif
}
