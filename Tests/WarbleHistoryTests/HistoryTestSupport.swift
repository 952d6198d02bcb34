import Foundation
@testable import WarbleHistory

/// A fresh `$WARBLE_HOME/history` in a temporary folder, removed at the end.
func withHistoryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-history-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: home) }
    return try body(HistoryStore.directory(home: home))
}

/// The regular files under `history/audio/`.
func audioFiles(in directory: URL) -> [URL] {
    let audio = directory.appendingPathComponent("audio")
    guard let walker = FileManager.default.enumerator(at: audio, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
    return walker.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
}

/// Some bytes standing for a WAV file.
func fakeAudio(_ seed: UInt8, count: Int = 4096) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
}

/// Runs python3 with a script and arguments; returns the process (started) and its standard output pipe.
func startPython(_ script: String, _ arguments: [String]) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    return (process, output)
}
