import Foundation
import Testing
@testable import ONNXRuntime
import WarbleTestSupport

/// RunTimer counts every Run of the process while started (other tests may run at the same time, so
/// counts are lower bounds while it runs) and nothing once stopped.
@Suite(.needs(fixtures: "onnx"), .needsRuntime, .serialized) struct RunTimerTests {
    @Test func countsRunsWhileStartedOnly() throws {
        let session = try Session(path: try Fixtures.path("symbolic.onnx"))
        let feeds = ["x": try Tensor(repeating: Float(1), shape: [1, 5, 4])]
        RunTimer.start()
        for _ in 0..<3 { _ = try session.run(feeds) }
        let counted = RunTimer.stop()
        #expect(counted.runs >= 3)
        #expect(counted.seconds > 0)
        _ = try session.run(feeds)
        #expect(RunTimer.totals == counted, "a run after stop() must not be counted")
    }
}
