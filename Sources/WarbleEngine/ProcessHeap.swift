import CHeap

/// The process's C heap.
public enum ProcessHeap {
    /// Gives memory the C library holds free back to the operating system (glibc's `malloc_trim`;
    /// nothing elsewhere). glibc keeps freed memory for reuse, so without this a server's resident
    /// memory stays at its busiest level long after the work is done. Returns whether any was released.
    @discardableResult
    public static func releaseFreeMemory() -> Bool {
        warble_heap_release_free_memory() != 0
    }
}
