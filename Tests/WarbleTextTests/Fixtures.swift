import Foundation
import Testing

/// Finds generated fixtures (made by `tools/text/make_fixtures.py`, run by `scripts/test.sh`).
enum Fixtures {
    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "fixture \(path) is missing: run scripts/test.sh (or tools/text/make_fixtures.py Tests/Fixtures/generated/text) first"
        }
    }

    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return url
    }()

    static let directory = root.appendingPathComponent("Tests/Fixtures/generated/text")

    /// The URL of a generated fixture; throws (failing the test) when it does not exist.
    static func url(_ relative: String) throws -> URL {
        let url = directory.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: url.path) }
        return url
    }

    static func json<T: Decodable>(_ relative: String, as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: url(relative)))
    }
}
