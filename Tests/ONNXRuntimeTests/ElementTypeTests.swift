import Foundation
import Testing
@testable import ONNXRuntime
import WarbleTestSupport

/// Each element type goes in and comes back out unchanged (Identity), and converts to float (Cast).
@Suite(.needsRuntime) struct ElementTypeTests {
    private func check<T: TensorElement & Equatable>(_ name: String, _ values: [T], asFloat: [Float]) throws {
        let session = try Session(path: try Fixtures.path("element_\(name).onnx"))
        #expect(session.inputs == [TensorInfo(name: "x", elementType: T.elementType, shape: [.symbolic("n")])])
        #expect(session.outputs.map(\.name) == ["y", "f", "n"])
        let out = try session.run(["x": try Tensor(values)])
        let y = try out.tensor("y")
        #expect(y.elementType == T.elementType)
        #expect(y.shape == [values.count])
        #expect(try y.scalars(as: T.self) == values)
        #expect(try out.tensor("f").scalars(as: Float.self) == asFloat)
        #expect(try out.tensor("n").scalars(as: Int64.self) == [Int64(values.count)])
    }

    @Test(.needs(fixtures: "onnx")) func float32() throws { try check("f32", [1.5, -2, 0, .infinity] as [Float], asFloat: [1.5, -2, 0, .infinity]) }
    @Test(.needs(fixtures: "onnx")) func float64() throws { try check("f64", [1.25, -1e10, 3] as [Double], asFloat: [1.25, -1e10, 3]) }
    @Test(.needs(fixtures: "onnx")) func int64() throws { try check("i64", [Int64.max, -7, 0], asFloat: [Float(Int64.max), -7, 0]) }
    @Test(.needs(fixtures: "onnx")) func int32() throws { try check("i32", [Int32.min, 5], asFloat: [Float(Int32.min), 5]) }
    @Test(.needs(fixtures: "onnx")) func int8() throws { try check("i8", [Int8.min, -1, 127], asFloat: [-128, -1, 127]) }
    @Test(.needs(fixtures: "onnx")) func uint8() throws { try check("u8", [UInt8(0), 200, 255], asFloat: [0, 200, 255]) }
    @Test(.needs(fixtures: "onnx")) func bool() throws { try check("bool", [true, false, true], asFloat: [1, 0, 1]) }

    #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
    @Test(.needs(fixtures: "onnx")) func float16() throws {
        let values: [Float16] = [0.5, -3.25, 65504, 0.0001]
        try check("f16", values, asFloat: values.map(Float.init))
    }
    #endif

    @Test(.needs(fixtures: "onnx")) func emptyTensor() throws {
        let session = try Session(path: try Fixtures.path("element_f32.onnx"))
        let out = try session.run(["x": try Tensor([Float]())])
        #expect(try out.tensor("y").shape == [0])
        #expect(try out.tensor("y").scalars(as: Float.self).isEmpty)
    }

    @Test func readingAsTheWrongTypeIsAnError() throws {
        let tensor = try Tensor([Float(1), 2])
        let error = #expect(throws: ONNXRuntimeError.self) { _ = try tensor.scalars(as: Int64.self) }
        #expect(error?.kind == .typeMismatch)
        #expect(try tensor.bytes().count == 8)
    }

    @Test(.needs(fixtures: "onnx")) func borrowedMemoryIsNotCopied() throws {
        final class Owner: @unchecked Sendable {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 12, alignment: 16)
            deinit { buffer.deallocate() }
        }
        let owner = Owner()
        _ = owner.buffer.bindMemory(to: Float.self).initialize(from: [Float(1), 2, 3])
        let tensor = try Tensor(borrowing: owner.buffer, elementType: .float32, shape: [3], owner: owner)
        try tensor.withUnsafeBufferPointer(of: Float.self) { data in
            #expect(UnsafeRawPointer(data.baseAddress) == UnsafeRawPointer(owner.buffer.baseAddress))
        }
        let session = try Session(path: try Fixtures.path("element_f32.onnx"))
        #expect(try session.run(["x": tensor]).tensor("y").scalars(as: Float.self) == [1, 2, 3])
    }

    @Test func inconsistentTensorArguments() throws {
        #expect(throws: ONNXRuntimeError.self) { _ = try Tensor([Float(1), 2, 3], shape: [2, 2]) }
        #expect(throws: ONNXRuntimeError.self) { _ = try Tensor([Float](), shape: [-1]) }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 3, alignment: 8)
        defer { bytes.deallocate() }
        #expect(throws: ONNXRuntimeError.self) {
            _ = try Tensor(borrowing: bytes, elementType: .float32, shape: [1], owner: nil)
        }
    }
}
