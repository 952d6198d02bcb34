import Foundation
import WarbleEngine

/// The project's Python tools and their environment (`.venv`), for conversions a family needs.
public struct ConversionTools: Sendable {
    public let root: URL
    public let python: URL

    public init(root: URL, python: URL) {
        self.root = root
        self.python = python
    }

    /// `WARBLE_SOURCE_ROOT`, else the checkout the running binary was built in (found by walking up
    /// from it to a directory with `tools/whisper/convert_ct2.py`); nil when neither has the tools.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                              executable: URL? = Bundle.main.executableURL) -> ConversionTools? {
        var candidates: [URL] = []
        if let root = environment["WARBLE_SOURCE_ROOT"], !root.isEmpty { candidates.append(URL(fileURLWithPath: root)) }
        if var url = executable?.resolvingSymlinksInPath() {
            while url.path != "/" {
                url.deleteLastPathComponent()
                candidates.append(url)
            }
        }
        for root in candidates where FileManager.default.fileExists(atPath: root.appendingPathComponent("tools/requirements.lock").path) {
            return ConversionTools(root: root, python: root.appendingPathComponent(".venv/bin/python"))
        }
        return nil
    }

    /// Throws, saying how to set it up, when the tools' Python environment is missing.
    public func check() throws {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw ModelInstallError("the conversion needs the tools' Python environment \(python.path): run "
                + "\(root.path)/scripts/python-env.sh")
        }
    }

    /// Runs `script` (relative to the root) with the tools' Python and returns what it printed on
    /// standard output; its error output goes into the error when it fails.
    @discardableResult
    public func run(_ script: String, _ arguments: [String]) async throws -> Data {
        try check()
        let process = Process()
        process.executableURL = python
        process.arguments = [root.appendingPathComponent(script).path] + arguments
        let name = "warble-convert-\(UUID().uuidString)"
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).log")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).out")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: errors)
            try? FileManager.default.removeItem(at: output)
        }
        let handle = try FileHandle(forWritingTo: errors)
        let outputHandle = try FileHandle(forWritingTo: output)
        process.standardError = handle
        process.standardOutput = outputHandle
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try? handle.close()
        try? outputHandle.close()
        guard process.terminationStatus == 0 else {
            // The last line says what went wrong (a Python traceback ends with the exception).
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            let last = log.split(whereSeparator: \.isNewline).last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            throw ModelInstallError("\(script) failed (exit \(process.terminationStatus)): "
                + (last.map { String($0.trimmingCharacters(in: .whitespaces).prefix(400)) } ?? "it printed nothing"))
        }
        return try Data(contentsOf: output)
    }
}

/// What the conversions that add files beside the published ones share: the downloads moved into
/// the model's directory, and a note for the manifest when the conversion could not be made (the
/// model then runs as published).
enum ConversionSteps {
    static let noteFile = ".conversion-note.txt"

    static func carryOver(_ downloaded: URL, into output: URL) throws {
        let fm = FileManager.default
        for name in try fm.contentsOfDirectory(atPath: downloaded.path) {
            try fm.moveItem(at: downloaded.appendingPathComponent(name), to: output.appendingPathComponent(name))
        }
    }

    /// Why `script` gave nothing: it failed, or the tools are not here.
    static func note(_ effect: String, script: String, error: (any Error)?) -> String {
        if let failure = error as? ModelInstallError { return "\(effect): \(failure.message)" }
        if let error { return "\(effect): \(script) failed (\(error))" }
        return "\(effect): that needs \(script) and its Python environment, which this warble cannot find (run it from "
            + "a Warble checkout after scripts/python-env.sh, or set WARBLE_SOURCE_ROOT to one)"
    }

    static func leave(_ note: String, in directory: URL) throws {
        try Data(note.utf8).write(to: directory.appendingPathComponent(noteFile))
    }

    /// The notes left in `directory` (removed from it).
    static func takeNotes(in directory: URL) -> [String] {
        let url = directory.appendingPathComponent(noteFile)
        defer { try? FileManager.default.removeItem(at: url) }
        return FileManager.default.contents(atPath: url.path).map { [String(decoding: $0, as: UTF8.self)] } ?? []
    }
}
