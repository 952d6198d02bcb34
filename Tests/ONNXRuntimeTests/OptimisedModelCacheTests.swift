import Foundation
import Testing
@testable import ONNXRuntime
import WarbleTestSupport

/// OptimisedModelCache on the fused Snake fixture (a graph with Warble's own operator, as Kokoro's is):
/// the saved form gives what the model gives, is reused, follows the model file, and a broken or
/// unwritable one never stops the model from loading.
@Suite("Optimised model cache")
struct OptimisedModelCacheTests {
    static let options = SessionOptions(intraOpThreads: 1, warbleOperators: true)

    /// A copy of the fixture in a folder of its own (the cache writes beside the model).
    static func model() throws -> (folder: URL, model: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warble-ort-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let model = folder.appendingPathComponent("snake.onnx")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: try Fixtures.path("snake_fused.onnx")), to: model)
        return (folder, model)
    }

    static func saved(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent(OptimisedModelCache.folderName).path)) ?? []
        return names.sorted()
    }

    static func output(_ session: Session) throws -> [Float] {
        let x = try Tensor(WarbleOperatorTests.input(time: 40), shape: [1, 4, 40])
        return try session.run(["x": x]).tensor("y").scalars(as: Float.self)
    }

    @Test(.needs(fixtures: "onnx"), .needsRuntime) func theSavedFormIsWrittenOnceAndReused() throws {
        let (folder, model) = try Self.model()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try Self.output(try Session(contentsOf: model, options: Self.options))

        let first = try OptimisedModelCache.session(contentsOf: model, options: Self.options)
        let saved = Self.saved(in: folder)
        #expect(saved.count == 1 && saved[0].hasPrefix("snake.onnx.") && saved[0].hasSuffix(".ort"), "\(saved)")
        #expect(first.source.hasSuffix(".ort"), "opened from \(first.source)")
        #expect(try Self.output(first) == plain)

        let path = folder.appendingPathComponent(OptimisedModelCache.folderName).appendingPathComponent(saved[0]).path
        let written = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let second = try OptimisedModelCache.session(contentsOf: model, options: Self.options)
        #expect(second.source == first.source)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == written,
                "the saved form was written again")
        #expect(try Self.output(second) == plain)
    }

    /// Four loads at once of a model with no saved form yet (a server's first requests): all open, each
    /// gives the model's output, one saved form is left and no partial file.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func loadsAtOnceAllOpenAndLeaveOneForm() throws {
        let (folder, model) = try Self.model()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try Self.output(try Session(contentsOf: model, options: Self.options))
        let outputs = Lock()
        nonisolated(unsafe) var results: [[Float]?] = Array(repeating: nil, count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            let output = try? Self.output(try OptimisedModelCache.session(contentsOf: model, options: Self.options))
            outputs.withLock { results[index] = output }
        }
        #expect(results.allSatisfy { $0 == plain })
        let left = (try? FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent(OptimisedModelCache.folderName).path)) ?? []
        #expect(left.count == 1 && left[0].hasSuffix(".ort"), "\(left)")
    }

    /// A model file that changes (a reinstall) gets a new saved form; the old one goes.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func aChangedModelGetsANewSavedForm() throws {
        let (folder, model) = try Self.model()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try OptimisedModelCache.session(contentsOf: model, options: Self.options)
        let before = Self.saved(in: folder)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: model.path)
        let session = try OptimisedModelCache.session(contentsOf: model, options: Self.options)
        let after = Self.saved(in: folder)
        #expect(after.count == 1 && after != before, "before \(before), after \(after)")
        #expect(session.source.hasSuffix(after.first ?? "-"))
    }

    /// A model reached through a link follows the file it points to, not the link.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func aLinkedModelFollowsItsTarget() throws {
        let (folder, target) = try Self.model()
        defer { try? FileManager.default.removeItem(at: folder) }
        let linkFolder = folder.appendingPathComponent("linked")
        try FileManager.default.createDirectory(at: linkFolder, withIntermediateDirectories: true)
        let link = linkFolder.appendingPathComponent("snake.onnx")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        _ = try OptimisedModelCache.session(contentsOf: link, options: Self.options)
        let before = Self.saved(in: linkFolder)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: target.path)
        _ = try OptimisedModelCache.session(contentsOf: link, options: Self.options)
        let after = Self.saved(in: linkFolder)
        #expect(before.count == 1 && after.count == 1 && after != before, "before \(before), after \(after)")
    }

    /// A saved form that does not load (truncated, or from another runtime) is made again.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func aBrokenSavedFormIsMadeAgain() throws {
        let (folder, model) = try Self.model()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try Self.output(try Session(contentsOf: model, options: Self.options))
        let first = try OptimisedModelCache.session(contentsOf: model, options: Self.options)
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: first.source))
        let again = try OptimisedModelCache.session(contentsOf: model, options: Self.options)
        #expect(again.source == first.source)
        #expect(try Self.output(again) == plain)
        let size = try FileManager.default.attributesOfItem(atPath: again.source)[.size] as? NSNumber
        #expect((size?.intValue ?? 0) > 1000, "the saved form was not written again: \(size ?? 0) bytes")
    }

    /// Where nothing can be saved (here the cache's folder name is taken by a file), the model loads as it is.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func withNowhereToSaveTheModelLoadsAsItIs() throws {
        let (folder, model) = try Self.model()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent(OptimisedModelCache.folderName))
        let session = try OptimisedModelCache.session(contentsOf: model, options: Self.options)
        #expect(session.source == model.path)
        #expect(try Self.output(session) == (try Self.output(try Session(contentsOf: model, options: Self.options))))
    }

    /// A session asking for basic optimisations only is not handed the saved form's extended ones.
    @Test(.needs(fixtures: "onnx"), .needsRuntime) func fewerOptimisationsAskedLoadTheModelAsItIs() throws {
        let (folder, model) = try Self.model()
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = Self.options
        options.graphOptimizationLevel = .basic
        let session = try OptimisedModelCache.session(contentsOf: model, options: options)
        #expect(session.source == model.path)
        #expect(Self.saved(in: folder).isEmpty)
    }

    /// The key does not depend on the process (Swift's Hasher is seeded per process; FNV-1a is not).
    @Test func theKeyIsStable() {
        #expect(OptimisedModelCache.fnv1a("") == "cbf29ce484222325")
        #expect(OptimisedModelCache.fnv1a("a") == "af63dc4c8601ec8c")
    }
}
