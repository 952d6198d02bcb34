import Foundation

extension ProcessMemory {
    /// Resets the peak resident set (VmHWM) to the current one (Linux ≥ 4.0: "5" into
    /// /proc/self/clear_refs), so that the next peak is that of what follows; false when it cannot.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }
}
