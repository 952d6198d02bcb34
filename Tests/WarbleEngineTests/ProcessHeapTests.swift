import Foundation
import Testing
import WarbleEngine

@Suite(.serialized) struct ProcessHeapTests {
    /// Freed blocks below an allocation that stays alive can only go back to the system through
    /// malloc_trim: resident memory must drop by most of what was freed.
    @Test func freedHeapMemoryGoesBackToTheSystem() throws {
        #if os(Linux)
        let blocks = (0..<1000).map { _ in
            let block = UnsafeMutableRawPointer.allocate(byteCount: 60_000, alignment: 16)
            block.initializeMemory(as: UInt8.self, repeating: 1, count: 60_000)
            return block
        }
        let pin = UnsafeMutableRawPointer.allocate(byteCount: 60_000, alignment: 16)
        defer { pin.deallocate() }
        for block in blocks { block.deallocate() }
        let before = try Self.residentKiB()
        #expect(ProcessHeap.releaseFreeMemory(), "malloc_trim found nothing to give back")
        let after = try Self.residentKiB()
        // 1,000 blocks of 60 kB were freed (about 57 MiB); at least half of it must leave the process.
        #expect(before - after > 28 * 1024, "resident memory \(before) KiB before, \(after) KiB after")
        #else
        #expect(!ProcessHeap.releaseFreeMemory(), "only glibc has malloc_trim")
        #endif
    }

    static func residentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(whereSeparator: \.isWhitespace)[1]))
    }
}
