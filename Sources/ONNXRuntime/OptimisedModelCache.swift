import Foundation

/// Opens a model from its graph as ONNX Runtime left it after the hardware-independent optimisations,
/// saved beside the model in ONNX Runtime's own format the first time, so that later loads skip them.
///
/// Kokoro v1.0 int8 (92 MB, 2,400 nodes): 2.46 s to open from the .onnx file, 1.10 s from the saved
/// form (AMD EPYC, one thread, ONNX Runtime 1.31.1, medians of 5); the first load pays once for writing it (3.3 s).
/// The saved form is `<folder>/.optimised/<file name>.<key>.ort`; the key covers the model file's size and
/// modification time, ONNX Runtime's version and the options that shape the saved graph, so a changed
/// model or runtime makes a new one (older ones of the same model are removed when it is written). A saved
/// form that does not load is removed and made again; a folder that cannot be written to (a read-only
/// install) loads the model as it is, every time.
public enum OptimisedModelCache {
    /// The folder beside the model where saved forms live.
    public static let folderName = ".optimised"

    /// A session for the model at `url`, opened from its saved optimised form (made first when missing).
    public static func session(contentsOf url: URL, options: SessionOptions = .init(),
                               environment: Environment? = nil) throws -> Session {
        let environment = try environment ?? Environment.shared()
        // A session that asks for fewer optimisations than the saved form has must not get them.
        guard options.graphOptimizationLevel.rawValue >= SessionOptions.GraphOptimizationLevel.extended.rawValue,
              let saved = try? savedPath(for: url, options: options, environment: environment)
        else {
            return try Session(contentsOf: url, options: options, environment: environment)
        }
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: saved.path) {
            if let session = try? Session(mappingORTFile: saved.path, options: options, environment: environment) {
                return session
            }
            try? fileManager.removeItem(at: saved)
        }
        guard (try? write(url, to: saved, options: options, environment: environment)) != nil,
              let session = try? Session(mappingORTFile: saved.path, options: options, environment: environment)
        else {
            return try Session(contentsOf: url, options: options, environment: environment)
        }
        return session
    }

    /// Where the saved form of `url` for these options and this runtime lives.
    public static func savedPath(for url: URL, options: SessionOptions, environment: Environment) throws -> URL {
        // The file itself, not a link to it (a link keeps its own time when what it points to changes).
        let attributes = try FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        var shape = "\(size)|\(modified)|\(environment.library.version)|\(options.warbleOperators)"
        for (key, value) in options.resolvedConfigEntries.sorted(by: { $0.key < $1.key }) { shape += "|\(key)=\(value)" }
        return url.deletingLastPathComponent().appendingPathComponent(folderName, isDirectory: true)
            .appendingPathComponent("\(url.lastPathComponent).\(fnv1a(shape)).ort")
    }

    /// Makes the saved form: a session at the extended level (what does not depend on this CPU's
    /// instructions) writes it to a temporary name, renamed into place once complete, so that a reader
    /// never sees half a file and two writers at once (processes or threads) both end with a whole one.
    private static func write(_ url: URL, to saved: URL, options: SessionOptions, environment: Environment) throws {
        let fileManager = FileManager.default
        let folder = saved.deletingLastPathComponent()
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        let partial = folder.appendingPathComponent(".\(saved.lastPathComponent).\(UUID().uuidString).partial")
        defer { try? fileManager.removeItem(at: partial) }
        var saving = options
        saving.graphOptimizationLevel = .extended
        saving.profilingPrefix = ""
        saving.optimisedModelOutput = partial.path
        saving.configEntries["session.save_model_format"] = "ORT"
        _ = try Session(contentsOf: url, options: saving, environment: environment)
        guard fileManager.fileExists(atPath: partial.path) else {
            throw ONNXRuntimeError(.runtime, "ONNX Runtime wrote no optimised model for \(url.path)")
        }
        let prefix = url.lastPathComponent + "."
        for old in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
        where old.hasPrefix(prefix) && old.hasSuffix(".ort") && old != saved.lastPathComponent {
            try? fileManager.removeItem(at: folder.appendingPathComponent(old))
        }
        guard rename(partial.path, saved.path) == 0 else {
            throw ONNXRuntimeError(.runtime, "could not move \(partial.path) to \(saved.path): \(String(cString: strerror(errno)))")
        }
    }

    /// FNV-1a, 64 bits, in hex: a name that stays the same from one process to the next (Swift's Hasher does not).
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
