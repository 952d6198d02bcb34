import Foundation
import WarbleEngine

/// Whisper in CTranslate2 form from `Systran/faster-whisper-SIZE` (`model.bin`, `config.json`,
/// `tokenizer.json`, `vocabulary.txt`), converted to ONNX on pull by the project's own converter
/// (tools/whisper/convert_ct2.py, run with the tools' Python environment).
public enum WhisperHubCatalogue {
    /// Sizes whose repositories have the layout the converter reads (large-v3 has vocabulary.json
    /// and 128 mel bands instead).
    public static let sizes = ["tiny", "tiny.en", "base", "base.en", "small", "small.en", "medium", "medium.en"]
    static let files = ["model.bin", "config.json", "tokenizer.json", "vocabulary.txt"]

    public static func repo(size: String) -> String { "Systran/faster-whisper-\(size)" }

    public static func plan(size: String, source: HubModelSource, tools: ConversionTools?) async throws -> ModelInstaller.Plan {
        let id = "whisper-\(size)"
        // Before anything is downloaded: the conversion must be able to run.
        guard let tools else {
            throw ModelInstallError("\(id) is converted from CTranslate2 to ONNX on pull by tools/whisper/convert_ct2.py, "
                + "which this warble cannot find: run it from a Warble checkout (after scripts/python-env.sh) or set "
                + "WARBLE_SOURCE_ROOT to one")
        }
        try tools.check()
        var planned: [(remote: RemoteFile, name: String)] = []
        for name in files { planned.append((try await source.describe(name), name)) }
        let origin = source.origin
        return ModelInstaller.Plan(id: id, files: planned, convert: { downloaded, output in
            try await tools.run("tools/whisper/convert_ct2.py", [downloaded.path, output.path, "--id", id,
                                                                   "--source", origin])
        }, manifest: { directory, _ in
            let url = directory.appendingPathComponent("manifest.json")
            do {
                var manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: url))
                manifest.licence = "MIT (Whisper, OpenAI; CTranslate2 conversion, Systran)"
                manifest.converter = "tools/whisper/convert_ct2.py"
                return manifest
            } catch {
                throw ModelInstallError("the converter wrote no readable \(url.path): \(error)")
            }
        })
    }
}

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
        for root in candidates where FileManager.default.fileExists(atPath: root.appendingPathComponent("tools/whisper/convert_ct2.py").path) {
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

    /// Runs `script` (relative to the root) with the tools' Python; its error output in the error.
    public func run(_ script: String, _ arguments: [String]) async throws {
        try check()
        let process = Process()
        process.executableURL = python
        process.arguments = [root.appendingPathComponent(script).path] + arguments
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("warble-convert-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let handle = try FileHandle(forWritingTo: errors)
        process.standardError = handle
        process.standardOutput = FileHandle.nullDevice
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try? handle.close()
        guard process.terminationStatus == 0 else {
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw ModelInstallError("\(script) failed (exit \(process.terminationStatus)): "
                + log.trimmingCharacters(in: .whitespacesAndNewlines).suffix(600))
        }
    }
}
