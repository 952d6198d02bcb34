import Foundation

/// This process's memory figures from /proc/self/status (Linux; nil elsewhere) and its CPU time.
enum ProcessMemory {
    /// Peak resident set size (VmHWM), in kibibytes.
    static var peakResidentKiB: Int? { field("VmHWM") }
    /// Resident set size now (VmRSS), in kibibytes.
    static var residentKiB: Int? { field("VmRSS") }
    /// CPU time used by the whole process so far (user + system, all threads), in seconds.
    static var cpuSeconds: Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
        }
        return nil
    }
}
