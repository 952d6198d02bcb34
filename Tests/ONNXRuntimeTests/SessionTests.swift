import Foundation
import Testing
@testable import ONNXRuntime
import WarbleTestSupport

@Suite(.needs(fixtures: "onnx"), .needsRuntime) struct SessionTests {
    @Test func symbolicDimensionsAndSeveralOutputs() throws {
        let session = try Session(path: try Fixtures.path("symbolic.onnx"))
        #expect(session.inputs == [TensorInfo(name: "x", elementType: .float32,
                                              shape: [.symbolic("batch"), .symbolic("time"), .fixed(4)])])
        #expect(session.outputs.map(\.description) == ["doubled: float[batch, time, 4]", "total: float[batch, time]"])

        let x = (0..<24).map(Float.init)
        let out = try session.run(["x": try Tensor(x, shape: [2, 3, 4])])
        #expect(out.names == ["doubled", "total"])
        #expect(try out.tensor("doubled").shape == [2, 3, 4])
        #expect(try out.tensor("doubled").scalars(as: Float.self) == x.map { $0 * 2 })
        let totals = stride(from: 0, to: 24, by: 4).map { x[$0..<$0 + 4].reduce(0, +) }
        #expect(try out.tensor("total").shape == [2, 3])
        #expect(try out.tensor("total").scalars(as: Float.self) == totals)

        // Another shape through the same session.
        let single = try session.run(["x": try Tensor(repeating: Float(1), shape: [1, 7, 4])], outputs: ["total"])
        #expect(single.names == ["total"])
        #expect(try single.tensor("total").scalars(as: Float.self) == Array(repeating: 4, count: 7))
    }

    @Test func unnamedDynamicDimension() throws {
        let session = try Session(path: try Fixtures.path("unnamed_dims.onnx"))
        #expect(session.inputs[0].shape == [.dynamic, .fixed(3)])
        let out = try session.run(["x": try Tensor([Float](repeating: 1, count: 6), shape: [2, 3])])
        #expect(try out.tensor("y").scalars(as: Float.self) == Array(repeating: 2, count: 6))
    }

    @Test func metadata() throws {
        let expected = try Fixtures.expected()["symbolic"] as? [String: Any]
        let session = try Session(path: try Fixtures.path("symbolic.onnx"))
        #expect(session.metadata.producerName == expected?["producer"] as? String)
        #expect(session.metadata.graphName == expected?["graph_name"] as? String)
        #expect(session.metadata.description == "symbolic dimensions")
        #expect(session.metadata.graphDescription == "a graph with symbolic dimensions")
        #expect(session.metadata.custom == expected?["custom_metadata"] as? [String: String])
    }

    @Test func sessionFromBytes() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Fixtures.path("tiny_linear.onnx"))))
        let session = try Session(bytes: bytes, options: SessionOptions(intraOpThreads: 1))
        #expect(session.source == "<\(bytes.count) bytes in memory>")
        let fixture = try Fixtures.expected()["tiny_linear"] as? [String: [Double]]
        let x = (fixture?["x"] ?? []).map(Float.init)
        let want = (fixture?["y"] ?? []).map(Float.init)
        let got = try session.run(["x": try Tensor(x, shape: [1, 16])]).tensor("y").scalars(as: Float.self)
        #expect(got.count == 16)
        // Tolerance: float32 Gemm against numpy's, 16 products per element.
        #expect(zip(got, want).map { abs($0 - $1) }.max() ?? 1 < 1e-5)
    }

    @Test(arguments: [SessionOptions.GraphOptimizationLevel.disabled, .basic, .extended, .all])
    func optionsAreApplied(level: SessionOptions.GraphOptimizationLevel) throws {
        let options = SessionOptions(intraOpThreads: 1, interOpThreads: 1, graphOptimizationLevel: level,
                                     parallelExecution: level == .basic, memoryArena: level != .basic,
                                     memoryPattern: level != .extended,
                                     configEntries: ["session.use_env_allocators": "0"])
        let session = try Session(path: try Fixtures.path("symbolic.onnx"), options: options)
        let out = try session.run(["x": try Tensor(repeating: Float(0.5), shape: [1, 1, 4])])
        #expect(try out.tensor("total").scalars(as: Float.self) == [2])
    }

    @Test func threadsStopSpinningAfterARunUnlessTold() throws {
        #expect(SessionOptions().resolvedConfigEntries == ["session.force_spinning_stop": "1", "session.x64quantprecision": "1"])
        #expect(SessionOptions(stopSpinningAfterRun: false, preciseQuantizedMatMul: false).resolvedConfigEntries.isEmpty)
        // An explicit entry wins over the option.
        let explicit = SessionOptions(configEntries: ["session.force_spinning_stop": "0", "session.use_env_allocators": "0"],
                                      preciseQuantizedMatMul: false)
        #expect(explicit.resolvedConfigEntries == ["session.force_spinning_stop": "0", "session.use_env_allocators": "0"])
        // ONNX Runtime takes the entry with two threads: same result as one thread without it.
        let x = try Tensor((0..<8).map(Float.init), shape: [1, 2, 4])
        let spinning = try Session(path: try Fixtures.path("symbolic.onnx"),
                                   options: SessionOptions(intraOpThreads: 1, stopSpinningAfterRun: false))
        let stopping = try Session(path: try Fixtures.path("symbolic.onnx"), options: SessionOptions(intraOpThreads: 2))
        #expect(try stopping.run(["x": x]).tensor("total").scalars(as: Float.self)
            == spinning.run(["x": x]).tensor("total").scalars(as: Float.self))
    }

    @Test func unavailableExecutionProviderNamesTheAvailableOnes() throws {
        let options = SessionOptions(executionProviders: [ExecutionProvider("NoSuchAccelerator")])
        let error = #expect(throws: ONNXRuntimeError.self) {
            _ = try Session(path: try Fixtures.path("symbolic.onnx"), options: options)
        }
        #expect(error?.message.contains("NoSuchAccelerator") == true)
        #expect(error?.message.contains("CPUExecutionProvider") == true)
        // CPU is always there.
        _ = try Session(path: try Fixtures.path("symbolic.onnx"), options: SessionOptions(executionProviders: [.init("CPU")]))
    }

    @Test func terminatedRunOptionsCancelTheRun() throws {
        let session = try Session(path: try Fixtures.path("symbolic.onnx"))
        let options = try RunOptions()
        try options.terminate()
        let feeds = ["x": try Tensor(repeating: Float(1), shape: [1, 2, 4])]
        let error = #expect(throws: ONNXRuntimeError.self) { _ = try session.run(feeds, options: options) }
        #expect(error?.kind == .cancelled)
        try options.reset()
        #expect(try session.run(feeds, options: options).tensor("total").scalars(as: Float.self) == [4, 4])
    }
}

/// `SessionOptions.profilingPrefix` (and `WARBLE_ORT_PROFILE`, which `warble` commands honour): ONNX
/// Runtime writes its per-operator trace when the session is released.
@Suite(.needs(fixtures: "onnx"), .needsRuntime) struct ProfilingTests {
    @Test func aProfiledSessionWritesEachOperatorsTimeWhenReleased() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warble-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let session = try Session(path: try Fixtures.path("symbolic.onnx"),
                                      options: SessionOptions(profilingPrefix: folder.appendingPathComponent("run").path))
            _ = try session.run(["x": try Tensor([Float](repeating: 1, count: 8), shape: [1, 2, 4])])
            // ONNX Runtime opens the file with the session and fills it only on release.
            let open = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(try open.allSatisfy { try Data(contentsOf: folder.appendingPathComponent($0)).isEmpty })
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1 && files[0].hasPrefix("run_") && files[0].hasSuffix(".json"))
        let data = try Data(contentsOf: folder.appendingPathComponent(files[0]))
        let events = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let kernels = events.filter { ($0["cat"] as? String) == "Node" && ($0["name"] as? String)?.hasSuffix("_kernel_time") == true }
        #expect(!kernels.isEmpty)
        #expect(events.contains { ($0["name"] as? String) == "model_run" })
    }

    /// A command may end while a background task still holds a profiled session: the exit handler
    /// (`ProfiledSessions.endAll`) writes the live sessions' profiles whole, and their release later
    /// writes nothing over them.
    @Test func theExitHandlerWritesTheProfilesOfLiveSessions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warble-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var written: [String] = []
        var before = Data()
        do {
            let session = try Session(path: try Fixtures.path("symbolic.onnx"),
                                      options: SessionOptions(profilingPrefix: folder.appendingPathComponent("live").path))
            _ = try session.run(["x": try Tensor([Float](repeating: 1, count: 8), shape: [1, 2, 4])])
            written = ProfiledSessions.endAll()
            #expect(written.count == 1 && written.allSatisfy { $0.hasPrefix(folder.path) })
            before = try Data(contentsOf: URL(fileURLWithPath: try #require(written.first)))
            let events = try #require(try JSONSerialization.jsonObject(with: before) as? [[String: Any]])
            #expect(events.contains { ($0["name"] as? String) == "model_run" })
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(written.first))) == before, "the release rewrote it")
        #expect(ProfiledSessions.endAll().isEmpty, "a released session is no longer live")
    }

    /// ONNX Runtime names a profile by its prefix and the second: sessions made in the same second with
    /// one prefix (a model's encoder and decoder) each get a file of their own, not one garbled file.
    @Test func sessionsOfOneSecondWriteAFileEach() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warble-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let options = SessionOptions(profilingPrefix: folder.appendingPathComponent("run").path)
            let sessions = try (0..<3).map { _ in try Session(path: try Fixtures.path("symbolic.onnx"), options: options) }
            for session in sessions {
                _ = try session.run(["x": try Tensor([Float](repeating: 1, count: 8), shape: [1, 2, 4])])
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 3 && files.allSatisfy { $0.hasPrefix("run_") })
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect((try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] != nil, "\(file) is not JSON")
        }
    }
}
