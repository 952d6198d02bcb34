import Foundation

/// Where the model catalogue's data files are (`Sources/WarbleHub/Catalogue/*.json`: `models.json`,
/// `defaults.json`, `voice-aliases.json`): beside the running binary, in the resource directory SwiftPM
/// makes for the WarbleHub target, then in the checkout the binary was built in (found by walking up from
/// it) or `WARBLE_SOURCE_ROOT`. Read by path, so that every layer reads the same data.
public enum CatalogueLocation {
    /// The catalogue's folder inside a Warble checkout.
    public static let sourceFolder = "Sources/WarbleHub/Catalogue"

    /// The places `name` is looked for, in order.
    public static func candidates(_ name: String, executable: URL? = Bundle.main.executableURL,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var urls: [URL] = []
        let binary = executable?.resolvingSymlinksInPath()
        if let directory = binary?.deletingLastPathComponent() {
            for bundle in ["Warble_WarbleHub.resources", "Warble_WarbleHub.bundle/Contents/Resources"] {
                urls.append(directory.appendingPathComponent("\(bundle)/\(name)"))
            }
        }
        var roots: [URL] = []
        if let root = environment["WARBLE_SOURCE_ROOT"], !root.isEmpty { roots.append(URL(fileURLWithPath: root)) }
        if var url = binary {
            while url.path != "/" {
                url.deleteLastPathComponent()
                roots.append(url)
            }
        }
        for root in roots where FileManager.default.fileExists(atPath: root.appendingPathComponent("\(sourceFolder)/\(name)").path) {
            urls.append(root.appendingPathComponent("\(sourceFolder)/\(name)"))
            break
        }
        return urls
    }

    /// The contents of `name` at the first place that has it, or the places looked in.
    public static func read(_ name: String) -> Result<Data, CatalogueFileMissing> {
        let urls = candidates(name)
        for url in urls {
            if let data = FileManager.default.contents(atPath: url.path) { return .success(data) }
        }
        return .failure(CatalogueFileMissing(name: name, lookedIn: urls))
    }
}

/// A catalogue file that is not where it was looked for.
public struct CatalogueFileMissing: Error, Sendable, CustomStringConvertible {
    public var name: String
    public var lookedIn: [URL]

    public var description: String {
        "the model catalogue (\(name)) is missing: it was looked for in " + lookedIn.map(\.path).joined(separator: ", ")
            + "; keep the Warble_WarbleHub.resources directory beside the warble binary"
    }
}
