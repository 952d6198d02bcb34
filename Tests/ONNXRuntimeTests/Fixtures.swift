import Foundation
import Testing

/// The synthetic ONNX models made by `tools/onnx/make_fixtures.py` (run by `scripts/test.sh`).
enum Fixtures {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/generated/onnx", isDirectory: true)

    /// The path of fixture `name`; records a failure that says how to make it when it is missing.
    static func path(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record("missing fixture \(url.path): run scripts/test.sh (it runs tools/onnx/make_fixtures.py)",
                         sourceLocation: sourceLocation)
            throw FixtureMissing()
        }
        return url.path
    }

    struct FixtureMissing: Error {}

    static func expected() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: try path("expected.json")))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
