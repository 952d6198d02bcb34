import Foundation
import Testing
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// `warble models check`'s core (`ModelFamilies.check`): on the seed families' synthetic graphs (the real
/// names and dtypes) every graph is as expected; with one input renamed the check names it, records the
/// other graphs too, and the model is refused.
@Suite(.needs(fixtures: "chatterbox"), .needs(fixtures: "cosyvoice3"), .needsRuntime) struct ModelCheckTests {
    static let generated = ChatterboxTests.root.deletingLastPathComponent()

    static func files(_ id: String, family: String, directory: URL) -> ModelFiles {
        ModelFiles(manifest: ModelManifest(id: id, family: family, licence: "test", source: "test", sampleRate: 24_000,
                                           languages: ["en"], files: [], config: .object(["variant": .string("fp32")])),
                   directory: directory)
    }

    @Test(arguments: [("chatterbox", "chatterbox/repo", 4), ("cosyvoice3", "cosyvoice3/repo", 12)])
    func theFixturesAreAsTheFamilyExpects(family: String, path: String, graphs: Int) throws {
        let check = ModelFamilies.builtIn.check(Self.files("m", family: family, directory: Self.generated.appendingPathComponent(path)),
                                                context: FamilyContext(phonemizer: nil))
        #expect(check.passes, "\(check.differences) \(check.loadError ?? "")")
        #expect(check.graphs.count >= graphs && check.graphs.allSatisfy { !$0.ports.isEmpty })
        #expect(check.graphs.flatMap(\.ports).allSatisfy { $0.matches && $0.found != "missing" })
    }

    @Test func aRenamedInputIsNamedAndTheRestStillChecked() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("model-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let repo = ChatterboxTests.repo
        let fm = FileManager.default
        try fm.createDirectory(at: directory.appendingPathComponent("onnx"), withIntermediateDirectories: true)
        for name in try fm.contentsOfDirectory(atPath: repo.path) where name != "onnx" {
            try fm.createSymbolicLink(at: directory.appendingPathComponent(name), withDestinationURL: repo.appendingPathComponent(name))
        }
        // Copies, not links: ONNX Runtime refuses external data that resolves outside the graph's folder.
        for name in try fm.contentsOfDirectory(atPath: repo.appendingPathComponent("onnx").path) {
            let source = name == "speech_encoder.onnx" ? ChatterboxTests.golden.appendingPathComponent("renamed_speech_encoder.onnx")
                : repo.appendingPathComponent("onnx/\(name)")
            try fm.copyItem(at: source, to: directory.appendingPathComponent("onnx/\(name)"))
        }
        let files = Self.files("renamed", family: "chatterbox", directory: directory)
        let check = ModelFamilies.builtIn.check(files, context: FamilyContext(phonemizer: nil))
        #expect(!check.passes)
        #expect(check.differences.count == 2, "\(check.differences)")
        #expect(check.differences.contains { $0.contains("speech_encoder.onnx (speech encoder): input 'audio_values'") && $0.contains("found missing") })
        #expect(check.differences.contains { $0.contains("input 'input_values': expected not fed by Chatterbox Turbo") })
        #expect(check.graphs.count == 4, "the graphs after the renamed one are checked too")
        // Loading it for real refuses it with the same finding, never a crash.
        #expect { try ModelFamilies.builtIn.load(files, context: FamilyContext(phonemizer: nil)) } throws: {
            "\($0)".contains("has no input 'audio_values'")
        }
    }
}
