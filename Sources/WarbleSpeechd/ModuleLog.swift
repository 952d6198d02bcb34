import Foundation

/// The module's log on standard error, which speech-dispatcher writes to `<LogDir>/<module>.log`.
/// Levels follow speech-dispatcher's LOGLEVEL (0 quiet … 5 everything); warnings print from level 1.
public final class ModuleLog: @unchecked Sendable {
    // `level` is guarded by `lock`.
    private let lock = NSLock()
    private var level: Int

    public init(level: Int = 3) {
        self.level = level
    }

    public func setLevel(_ level: Int) { lock.withLock { self.level = level } }

    public func warning(_ message: @autoclosure () -> String) { write(1, "warning", message) }
    public func info(_ message: @autoclosure () -> String) { write(3, "info", message) }
    public func debug(_ message: @autoclosure () -> String) { write(5, "debug", message) }

    private func write(_ needed: Int, _ label: String, _ message: () -> String) {
        guard lock.withLock({ level >= needed }) else { return }
        let line = "[\(String(format: "%.3f", Date().timeIntervalSince1970)) sd_warble \(label)] \(message())\n"
        try? FileHandle.standardError.write(contentsOf: Data(line.utf8))
    }
}
