import Foundation
import Testing
@testable import ONNXRuntime
import WarbleTestSupport

/// What a user sees on bad input: clear messages, never a crash.
@Suite(.needsRuntime) struct ErrorTests {
    @Test func missingModelFile() throws {
        let error = #expect(throws: ONNXRuntimeError.self) { _ = try Session(path: "/nonexistent/model.onnx") }
        #expect(error?.kind == .modelNotFound)
        #expect(error?.message == "model file not found: /nonexistent/model.onnx")
    }

    @Test func directoryIsNotAModel() throws {
        let error = #expect(throws: ONNXRuntimeError.self) { _ = try Session(path: Fixtures.directory.path) }
        #expect(error?.kind == .modelNotFound)
    }

    @Test(.needs(fixtures: "onnx"), arguments: ["not_onnx.onnx", "truncated.onnx"])
    func notAnONNXFile(name: String) throws {
        let path = try Fixtures.path(name)
        let error = #expect(throws: ONNXRuntimeError.self) { _ = try Session(path: path) }
        #expect(error?.kind == .invalidModel)
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("not a valid ONNX model") == true)
        #expect(error?.ortCode != nil)
    }

    /// An .ort file is mapped, not read: an empty one, or one that is not ONNX Runtime's format, is an
    /// invalid model naming the file, as an .onnx file would be.
    @Test func emptyAndGarbageORTFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warble-ort-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, bytes) in [("empty.ort", Data()), ("garbage.ort", Data(repeating: 0x5a, count: 4096))] {
            let path = folder.appendingPathComponent(name).path
            try bytes.write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: ONNXRuntimeError.self) { _ = try Session(path: path) }
            #expect(error?.kind == .invalidModel, "\(name): \(String(describing: error))")
            #expect(error?.message.contains(path) == true, "\(name): \(error?.message ?? "")")
            if !bytes.isEmpty {
                #expect(error?.message.contains("not a valid ONNX Runtime format (.ort) model") == true, "\(error?.message ?? "")")
            }
        }
    }

    @Test func emptyAndGarbageBytes() throws {
        #expect(throws: ONNXRuntimeError.self) { _ = try Session(bytes: []) }
        let error = #expect(throws: ONNXRuntimeError.self) { _ = try Session(bytes: Array("garbage".utf8)) }
        #expect(error?.kind == .invalidModel)
    }

    @Test(.needs(fixtures: "onnx")) func unknownInputListsTheExpectedOnes() throws {
        let session = try Session(path: try Fixtures.path("kv_cache_f32.onnx"))
        let error = #expect(throws: ONNXRuntimeError.self) {
            _ = try session.run(["tokens": try Tensor([Float](repeating: 0, count: 8), shape: [1, 1, 8])])
        }
        #expect(error?.kind == .unknownName)
        #expect(error?.message.contains("no input named 'tokens'") == true)
        #expect(error?.message.contains("token: float[1, 1, 8], past: float[1, past_len, 8]") == true)
    }

    @Test(.needs(fixtures: "onnx")) func missingInputIsNamed() throws {
        let session = try Session(path: try Fixtures.path("kv_cache_f32.onnx"))
        let error = #expect(throws: ONNXRuntimeError.self) {
            _ = try session.run(["token": try Tensor([Float](repeating: 0, count: 8), shape: [1, 1, 8])])
        }
        #expect(error?.kind == .missingInput)
        #expect(error?.message.contains("past: float[1, past_len, 8]") == true)
    }

    @Test(.needs(fixtures: "onnx")) func wrongElementTypeSaysExpectedAndGiven() throws {
        let session = try Session(path: try Fixtures.path("symbolic.onnx"))
        let error = #expect(throws: ONNXRuntimeError.self) {
            _ = try session.run(["x": try Tensor([Double](repeating: 0, count: 4), shape: [1, 1, 4])])
        }
        #expect(error?.kind == .typeMismatch)
        #expect(error?.message.contains("expects float[batch, time, 4], got double[1, 1, 4]") == true)
    }

    @Test(.needs(fixtures: "onnx"), arguments: [[1, 4], [1, 1, 5], [1, 1, 4, 1]])
    func wrongShapeSaysExpectedAndGiven(shape: [Int]) throws {
        let session = try Session(path: try Fixtures.path("symbolic.onnx"))
        let count = shape.reduce(1, *)
        let error = #expect(throws: ONNXRuntimeError.self) {
            _ = try session.run(["x": try Tensor([Float](repeating: 0, count: count), shape: shape)])
        }
        #expect(error?.kind == .shapeMismatch)
        #expect(error?.message.contains("float[batch, time, 4]") == true)
        #expect(error?.message.contains("got float\(shape)") == true)
    }

    @Test(.needs(fixtures: "onnx")) func unknownOutputListsTheOutputs() throws {
        let session = try Session(path: try Fixtures.path("symbolic.onnx"))
        let error = #expect(throws: ONNXRuntimeError.self) {
            _ = try session.run(["x": try Tensor(repeating: Float(0), shape: [1, 1, 4])], outputs: ["sum"])
        }
        #expect(error?.kind == .unknownName)
        #expect(error?.message.contains("doubled: float[batch, time, 4], total: float[batch, time]") == true)
    }
}
