import Foundation
import ONNXRuntime
import Testing
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// Finding CosyVoice 3's files and refusing ones that are not its own, with errors that say what is
/// wrong and how to get the model.
@Suite(.needs(fixtures: "cosyvoice3"), .needsRuntime) struct CosyVoice3FilesTests {
    /// A copy of the fixture model directory (symbolic links), changed by `change`.
    func copy(_ change: (URL) throws -> Void) throws -> URL {
        let repo = CosyVoice3TestFixtures.repo
        guard FileManager.default.fileExists(atPath: repo.path) else {
            Issue.record(CosyVoice3TestFixtures.Missing(path: repo.path))
            throw CosyVoice3TestFixtures.Missing(path: repo.path)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cosyvoice3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: repo.path) {
            try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent(name),
                                                       withDestinationURL: repo.appendingPathComponent(name))
        }
        try change(directory)
        return directory
    }

    func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func fp32IsPreferredUnlessTheConfigurationSaysOtherwise() throws {
        let both = try copy { _ in }
        defer { try? FileManager.default.removeItem(at: both) }
        #expect(try CosyVoice3Files.locate(in: both).variant == "fp32")
        #expect(try CosyVoice3Files.locate(in: both, variant: "fp16").variant == "fp16")
        let fp16Only = try copy { directory in
            for name in CosyVoice3Files.variantFiles("fp32") { try FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
        }
        defer { try? FileManager.default.removeItem(at: fp16Only) }
        let files = try CosyVoice3Files.locate(in: fp16Only)
        #expect(files.variant == "fp16" && files.estimator.lastPathComponent == "flow.decoder.estimator.fp16.onnx")
    }

    @Test func aMissingFileIsNamedWithTheCommandThatGetsIt() throws {
        let directory = try copy { try FileManager.default.removeItem(at: $0.appendingPathComponent("hift_decoder_fp32.onnx")) }
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = message { _ = try CosyVoice3Model(directory: directory) }
        #expect(text.contains("hift_decoder_fp32.onnx") && text.contains("warble models pull cosyvoice3"), "\(text)")
        let tokenizer = try copy { try FileManager.default.removeItem(at: $0.appendingPathComponent("merges.txt")) }
        defer { try? FileManager.default.removeItem(at: tokenizer) }
        let tokenizerText = message { _ = try CosyVoice3Files.locate(in: tokenizer) }
        #expect(tokenizerText.contains("merges.txt (or tokenizer/merges.txt)") && tokenizerText.contains("warble models pull cosyvoice3"))
    }

    @Test func theTokenizerMayBeUnderTokenizer() throws {
        let directory = try copy { directory in
            let sub = directory.appendingPathComponent("tokenizer")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            for name in ["vocab.json", "merges.txt", "tokenizer_config.json"] {
                try FileManager.default.moveItem(at: directory.appendingPathComponent(name), to: sub.appendingPathComponent(name))
            }
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try CosyVoice3Files.locate(in: directory)
        #expect(files.vocabulary.path.hasSuffix("tokenizer/vocab.json"))
        #expect(try CosyVoice3Tokenizer.load(files).id(for: "<|endofprompt|>") == 151_646)
    }

    @Test func aGraphWithOtherInputsSaysWhatWasExpected() throws {
        let directory = try copy { directory in
            let target = directory.appendingPathComponent("flow_token_embedding_fp32.onnx")
            try FileManager.default.removeItem(at: target)
            try FileManager.default.createSymbolicLink(at: target,
                withDestinationURL: CosyVoice3TestFixtures.repo.appendingPathComponent("llm_decoder_fp32.onnx"))
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = message { _ = try CosyVoice3Model(directory: directory, configuration: .init(variant: "fp32")) }
        #expect(text.contains("flow_token_embedding_fp32.onnx") && text.contains("no input 'token'") && text.contains("hidden_state"),
                "\(text)")
    }

    @Test func aGraphWithTheWrongElementTypeIsRefused() throws {
        let session = try Session(contentsOf: CosyVoice3TestFixtures.repo.appendingPathComponent("llm_decoder_fp32.onnx"))
        let text = message {
            _ = try ModelGraph(session: session, file: "llm_decoder_fp32.onnx", model: "CosyVoice 3", role: "LLM decoder",
                                    inputs: [.index("hidden_state")], outputs: ["logits"])
        }
        #expect(text.contains("'hidden_state' is float") && text.contains("int32 or int64"), "\(text)")
    }
}
