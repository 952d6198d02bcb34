import Foundation

/// Where the ONNX Runtime shared library is looked for, in order:
/// 1. `WARBLE_ORT_LIBRARY` (a file path), when set;
/// 2. `$WARBLE_HOME/lib/`, where `$WARBLE_HOME` defaults to `${XDG_DATA_HOME:-~/.local/share}/warble`.
public enum LibraryLocator {
    /// The environment variable that names the library file directly.
    public static let libraryVariable = "WARBLE_ORT_LIBRARY"

    /// File names tried inside a directory, most specific first.
    static var fileNames: [String] {
        #if os(macOS) || os(iOS)
        ["libonnxruntime.dylib"]
        #else
        ["libonnxruntime.so", "libonnxruntime.so.1"]
        #endif
    }

    /// The Warble data directory (`$WARBLE_HOME`, else `${XDG_DATA_HOME:-~/.local/share}/warble`).
    public static func warbleHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["WARBLE_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        let data: URL
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            data = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            data = home.appendingPathComponent(".local/share", isDirectory: true)
        }
        return data.appendingPathComponent("warble", isDirectory: true)
    }

    /// The paths that will be tried, in order.
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let explicit = environment[libraryVariable], !explicit.isEmpty {
            return [explicit]
        }
        let lib = warbleHome(environment: environment).appendingPathComponent("lib", isDirectory: true)
        var paths = fileNames.map { lib.appendingPathComponent($0).path }
        // A versioned file alone (libonnxruntime.so.1.31.1) also counts.
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: lib.path) {
            paths += entries.filter { $0.hasPrefix("libonnxruntime.so.") }.sorted().reversed()
                .map { lib.appendingPathComponent($0).path }
        }
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }
}
