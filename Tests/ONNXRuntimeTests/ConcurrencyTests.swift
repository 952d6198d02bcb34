import Foundation
import Testing
@testable import ONNXRuntime
import WarbleTestSupport

@Suite(.needs(fixtures: "onnx"), .needsRuntime) struct ConcurrencyTests {
    /// One shared session, many tasks running it at once with different inputs.
    @Test func concurrentRunsOnOneSession() async throws {
        let session = try Session(path: try Fixtures.path("symbolic.onnx"))
        let results = try await withThrowingTaskGroup(of: (Int, [Float]).self) { group in
            for task in 0..<16 {
                group.addTask {
                    var last: [Float] = []
                    for _ in 0..<50 {
                        let x = try Tensor(repeating: Float(task), shape: [1, task + 1, 4])
                        last = try session.run(["x": x], outputs: ["total"]).tensor("total").scalars(as: Float.self)
                    }
                    return (task, last)
                }
            }
            return try await group.reduce(into: [Int: [Float]]()) { $0[$1.0] = $1.1 }
        }
        #expect(results.count == 16)
        for (task, totals) in results {
            #expect(totals == Array(repeating: Float(task * 4), count: task + 1))
        }
    }

    /// 10,000 runs (tensors made and freed each time): resident memory stays flat.
    @Test func noLeakOverTenThousandRuns() throws {
        let session = try Session(path: try Fixtures.path("kv_cache_f32.onnx"))
        func runMany(_ count: Int) throws {
            for step in 0..<count {
                let past = try Tensor(repeating: Float(step), shape: [1, 16, 8])
                let token = try Tensor(repeating: Float(1), shape: [1, 1, 8])
                let out = try session.run(["token": token, "past": past])
                _ = try out.tensor("mean").scalars(as: Float.self)
            }
        }
        try runMany(1_000)  // warm up arenas and caches
        let before = try ResidentMemory.bytes()
        try runMany(10_000)
        let after = try ResidentMemory.bytes()
        let grownMiB = Double(after - before) / 1_048_576
        // Tolerance: a few MiB of allocator noise; a leak of even 100 bytes a run would show 1 MiB.
        #expect(grownMiB < 3, "resident memory grew by \(grownMiB) MiB over 10,000 runs")
    }
}

enum ResidentMemory {
    struct Unreadable: Error, CustomStringConvertible {
        let statm: String
        var description: String { "cannot read the resident set size from /proc/self/statm: '\(statm)'" }
    }

    /// The process's resident set size, from /proc/self/statm; an error (never 0) when it cannot be read,
    /// so a leak check cannot pass by reading nothing on both sides.
    static func bytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let fields = text.split(separator: " ")
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        guard fields.count > 1, let pages = Int(fields[1]), pages > 0, pageSize > 0 else {
            throw Unreadable(statm: text)
        }
        return pages * pageSize
    }
}
