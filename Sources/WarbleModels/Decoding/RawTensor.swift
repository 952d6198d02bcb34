import Foundation
import ONNXRuntime
import WarbleSpeech

/// Tensors handled as bytes of their own element type: zeros and gathers that work for f32, f16 or
/// any fixed-size type alike, so a cache is never converted.
enum RawTensor {
    /// Memory a tensor borrows, freed with the tensor.
    final class Bytes: @unchecked Sendable {
        // Written once before the tensor is made; read by ONNX Runtime only.
        let buffer: UnsafeMutableRawBufferPointer

        init(count: Int) {
            buffer = .allocate(byteCount: max(count, 1), alignment: 64)
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
        }

        deinit { buffer.deallocate() }
    }

    static func elementSize(_ type: ElementType) throws -> Int {
        guard let size = type.byteSize else { throw ModelError(.badModel, "a cache of \(type) cannot be kept") }
        return size
    }

    /// A tensor of zeros.
    static func zeros(elementType: ElementType, shape: [Int]) throws -> Tensor {
        let size = try elementSize(elementType)
        let bytes = Bytes(count: shape.reduce(1, *) * size)
        return try Tensor(borrowing: UnsafeMutableRawBufferPointer(rebasing: bytes.buffer[0..<(shape.reduce(1, *) * size)]),
                          elementType: elementType, shape: shape, owner: bytes)
    }

    /// The slices `indices` of `tensor` along `axis`, in that order.
    static func gather(_ tensor: Tensor, axis: Int, indices: [Int]) throws -> Tensor {
        let size = try elementSize(tensor.elementType)
        let shape = tensor.shape
        precondition(shape.indices.contains(axis) && indices.allSatisfy { shape[axis] > $0 && $0 >= 0 })
        let outer = shape[..<axis].reduce(1, *)
        let inner = shape[(axis + 1)...].reduce(1, *) * size
        var newShape = shape
        newShape[axis] = indices.count
        let source = try tensor.bytes()
        let total = outer * indices.count * inner
        let bytes = Bytes(count: total)
        source.withUnsafeBytes { from in
            for o in 0..<outer {
                for (n, index) in indices.enumerated() where inner > 0 {
                    let src = from.baseAddress! + (o * shape[axis] + index) * inner
                    let dst = bytes.buffer.baseAddress! + (o * indices.count + n) * inner
                    dst.copyMemory(from: src, byteCount: inner)
                }
            }
        }
        return try Tensor(borrowing: UnsafeMutableRawBufferPointer(rebasing: bytes.buffer[0..<total]),
                          elementType: tensor.elementType, shape: newShape, owner: bytes)
    }
}
