import Foundation
import WarbleSpeech

/// Where a CosyVoice 3 model's files are: the community ONNX split's names (seed-models.md §1.1),
/// one variant (`fp32` or `fp16`) for the LLM and flow graphs, fp32 for the text embedding and
/// HiFT, and a Qwen2 tokenizer at the root or under `tokenizer/`.
public struct CosyVoice3Files: Sendable, Equatable {
    public static let variants = ["fp32", "fp16"]

    public var variant: String
    public var textEmbedding: URL
    public var speechEmbedding: URL
    public var backboneInitial: URL
    public var backboneDecode: URL
    public var llmDecoder: URL
    public var flowTokenEmbedding: URL
    public var preLookahead: URL
    public var speakerProjection: URL
    public var estimator: URL
    public var f0Predictor: URL
    public var sourceGenerator: URL
    public var hiftDecoder: URL
    public var vocabulary: URL
    public var merges: URL
    public var tokenizerConfig: URL

    /// The files of one variant, by name.
    public static func variantFiles(_ variant: String) -> [String] {
        ["llm_speech_embedding", "llm_backbone_initial", "llm_backbone_decode", "llm_decoder", "flow_token_embedding",
         "flow_pre_lookahead", "flow_speaker_projection"].map { "\($0)_\(variant).onnx" }
            + ["flow.decoder.estimator.\(variant).onnx"]
    }

    /// The files every variant shares.
    public static let sharedFiles = ["text_embedding_fp32.onnx", "hift_f0_predictor_fp32.onnx",
                                     "hift_source_generator_fp32.onnx", "hift_decoder_fp32.onnx"]

    /// The files in `directory`: `variant` when given (the manifest's), else fp32 when all of its files
    /// are there, else fp16. A clear error names the first missing file.
    public static func locate(in directory: URL, variant: String? = nil) throws -> CosyVoice3Files {
        let fileManager = FileManager.default
        func exists(_ name: String) -> Bool { fileManager.fileExists(atPath: directory.appendingPathComponent(name).path) }
        if let variant, !variants.contains(variant) {
            throw ModelError(.badModel, "CosyVoice 3 has no variant '\(variant)' (variants: \(variants.joined(separator: ", ")))")
        }
        let chosen = variant ?? variants.first { variantFiles($0).allSatisfy(exists) } ?? variants[0]
        func file(_ name: String) throws -> URL {
            guard exists(name) else { throw missing(name, in: directory, variant: chosen) }
            return directory.appendingPathComponent(name)
        }
        func tokenizerFile(_ name: String) throws -> URL {
            if exists(name) { return directory.appendingPathComponent(name) }
            guard exists("tokenizer/" + name) else { throw missing("\(name) (or tokenizer/\(name))", in: directory, variant: chosen) }
            return directory.appendingPathComponent("tokenizer/" + name)
        }
        let named = variantFiles(chosen)
        return CosyVoice3Files(
            variant: chosen, textEmbedding: try file(sharedFiles[0]), speechEmbedding: try file(named[0]),
            backboneInitial: try file(named[1]), backboneDecode: try file(named[2]), llmDecoder: try file(named[3]),
            flowTokenEmbedding: try file(named[4]), preLookahead: try file(named[5]), speakerProjection: try file(named[6]),
            estimator: try file(named[7]), f0Predictor: try file(sharedFiles[1]), sourceGenerator: try file(sharedFiles[2]),
            hiftDecoder: try file(sharedFiles[3]), vocabulary: try tokenizerFile("vocab.json"), merges: try tokenizerFile("merges.txt"),
            tokenizerConfig: try tokenizerFile("tokenizer_config.json"))
    }

    static func missing(_ name: String, in directory: URL, variant: String) -> ModelError {
        ModelError(.badModel, "CosyVoice 3's \(name) is missing from \(directory.path) (variant \(variant)); "
            + "get the model's files with `warble models pull cosyvoice3`")
    }
}
