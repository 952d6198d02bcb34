/// Memory that a tensor borrows for its whole life: ONNX Runtime reads and writes it in place.
final class TensorStorage: @unchecked Sendable {
    // Written only while the owning Tensor is being initialised; read-only afterwards.
    let pointer: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        // Never zero bytes, so that an empty tensor still has a valid data pointer.
        pointer = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(byteCount, 1), alignment: 64)
    }

    deinit { pointer.deallocate() }
}
