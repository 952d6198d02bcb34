import Foundation
import ONNXRuntime
import Testing

/// What a test needs from outside the repository: the generated fixtures (`Tests/Fixtures/generated/AREA`, made by
/// `tools/AREA/make_fixtures.py`), the set-up's models (`$WARBLE_HOME/models/ID`) and ONNX Runtime
/// (`$WARBLE_HOME/lib/libonnxruntime.so`). A test or suite that lacks one is skipped with a reason that says how to
/// get it, and the process prints how many were skipped, and for what, when it ends; with
/// `WARBLE_REQUIRE_FIXTURES=1` (scripts/test.sh, CI) nothing is skipped, so that what is missing fails.
public enum TestNeeds {
    /// The variable that turns skipping off.
    public static let requireVariable = "WARBLE_REQUIRE_FIXTURES"

    /// Whether what is missing must fail rather than skip (`WARBLE_REQUIRE_FIXTURES=1`).
    public static var required: Bool {
        ProcessInfo.processInfo.environment[requireVariable] == "1"
    }

    /// `Tests/Fixtures/generated`.
    public static let generatedDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/generated", isDirectory: true)

    /// `$WARBLE_HOME`, else `${XDG_DATA_HOME:-~/.local/share}/warble`: where ONNX Runtime's library and the models are
    /// looked for.
    public static var warbleHome: URL { LibraryLocator.warbleHome() }

    /// Whether `Tests/Fixtures/generated/AREA` holds anything.
    public static func hasFixtures(_ area: String) -> Bool {
        let entries = try? FileManager.default.contentsOfDirectory(atPath: generatedDirectory.appendingPathComponent(area).path)
        return entries?.contains { !$0.hasPrefix(".") } ?? false
    }

    /// Whether model `id` is installed (`$WARBLE_HOME/models/ID/manifest.json`, what `ModelStore` reads).
    public static func hasModel(_ id: String) -> Bool {
        FileManager.default.fileExists(atPath: modelDirectory(id).appendingPathComponent("manifest.json").path)
    }

    /// Whether the ONNX Runtime library is where `LibraryLocator` looks: `WARBLE_ORT_LIBRARY`, else `$WARBLE_HOME/lib`.
    public static var hasRuntime: Bool {
        LibraryLocator.candidates().contains { FileManager.default.fileExists(atPath: $0) }
    }

    /// Whether `$WARBLE_HOME/PATH` exists (what the set-up leaves beside its models, such as its wheel cache).
    public static func hasHomeFile(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: warbleHome.appendingPathComponent(path).path)
    }

    static func modelDirectory(_ id: String) -> URL {
        warbleHome.appendingPathComponent("models", isDirectory: true).appendingPathComponent(id, isDirectory: true)
    }

    static var runtimeDirectory: URL { warbleHome.appendingPathComponent("lib", isDirectory: true) }

    /// The skip reasons.
    static func fixturesReason(_ area: String) -> String {
        "needs Tests/Fixtures/generated/\(area): run scripts/test.sh, or tools/fixtures/make_all.py \(area) (after scripts/setup.sh --dev)"
    }

    static func modelReason(_ id: String) -> String {
        "needs the model \(id) (\(modelDirectory(id).path)): run scripts/test.sh, or scripts/setup.sh --all"
    }

    static func homeFileReason(_ path: String) -> String {
        "needs \(warbleHome.appendingPathComponent(path).path), which the set-up leaves: run scripts/test.sh, or scripts/setup.sh --all"
    }

    static var runtimeReason: String {
        "needs ONNX Runtime (\(runtimeDirectory.appendingPathComponent("libonnxruntime.so").path)): run scripts/test.sh, or scripts/setup.sh"
    }

    /// A trait that enables its test when `present()` holds or skipping is off, and records a skip otherwise.
    static func trait(_ what: String, _ reason: String, sourceLocation: SourceLocation,
                      _ present: @escaping @Sendable () -> Bool) -> ConditionTrait {
        .enabled(Comment(rawValue: reason), sourceLocation: sourceLocation) {
            if required || present() { return true }
            SkipLedger.shared.record(what)
            return false
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips unless `Tests/Fixtures/generated/AREA` was made (by `tools/AREA/make_fixtures.py`).
    public static func needs(fixtures area: String, sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        TestNeeds.trait("fixtures \(area)", TestNeeds.fixturesReason(area), sourceLocation: sourceLocation) {
            TestNeeds.hasFixtures(area)
        }
    }

    /// Skips unless model `id` is installed under `$WARBLE_HOME/models`.
    public static func needs(model id: String, sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        TestNeeds.trait("model \(id)", TestNeeds.modelReason(id), sourceLocation: sourceLocation) {
            TestNeeds.hasModel(id)
        }
    }

    /// Skips unless `$WARBLE_HOME/PATH` exists: a file the set-up leaves beside its models (its wheel cache, the
    /// CTranslate2 files it converted Whisper from).
    public static func needs(homeFile path: String, sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        TestNeeds.trait("set-up file \(path)", TestNeeds.homeFileReason(path), sourceLocation: sourceLocation) {
            TestNeeds.hasHomeFile(path)
        }
    }

    /// Skips unless the ONNX Runtime library is installed (`$WARBLE_HOME/lib/libonnxruntime.so`).
    public static var needsRuntime: Self {
        TestNeeds.trait("ONNX Runtime", TestNeeds.runtimeReason, sourceLocation: #_sourceLocation) { TestNeeds.hasRuntime }
    }
}

/// The skips so far, by what was missing; printed to standard error when the process ends.
final class SkipLedger: @unchecked Sendable {
    static let shared = SkipLedger()

    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var order: [String] = []
    private var registered = false

    func record(_ what: String) {
        lock.lock()
        defer { lock.unlock() }
        if counts[what] == nil { order.append(what) }
        counts[what, default: 0] += 1
        if !registered {
            registered = true
            atexit { SkipLedger.shared.printSummary() }
        }
    }

    func summary() -> String? {
        lock.lock()
        defer { lock.unlock() }
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return nil }
        // Most skipped first; ties in the order they were first met.
        let parts = order.enumerated()
            .sorted { (counts[$0.element] ?? 0, -$0.offset) > (counts[$1.element] ?? 0, -$1.offset) }
            .map { "\($0.element) (\(counts[$0.element] ?? 0))" }.joined(separator: ", ")
        return "warble: \(total) suites or tests skipped: their models or fixtures are missing "
            + "(run scripts/test.sh, or set \(TestNeeds.requireVariable)=1 to fail instead): \(parts)\n"
    }

    func printSummary() {
        guard let line = summary() else { return }
        FileHandle.standardError.write(Data(line.utf8))
    }
}
