import Foundation
import WarbleSpeech

/// Where a Chatterbox Turbo model's files are (`ResembleAI/chatterbox-turbo-ONNX`, seed-models.md §2):
/// `onnx/{speech_encoder,embed_tokens,language_model,conditional_decoder}{suffix}.onnx`, each with its
/// weights in an `.onnx_data` sidecar that ONNX Runtime finds beside it, and `tokenizer.json` at the root.
public struct ChatterboxFiles: Sendable, Equatable {
    /// Variants and their file-name suffixes, in the order one is chosen when none is named.
    public static let variants: [(name: String, suffix: String)] = [
        ("fp32", ""), ("fp16", "_fp16"), ("q4f16", "_q4f16"), ("quantized", "_quantized"), ("q4", "_q4"),
    ]
    public static let graphs = ["speech_encoder", "embed_tokens", "language_model", "conditional_decoder"]

    public var variant: String
    public var speechEncoder: URL
    public var embedTokens: URL
    public var languageModel: URL
    public var conditionalDecoder: URL
    public var tokenizer: URL

    /// The files in `directory`: `variant` when given (the manifest's), else the first variant whose four
    /// graphs are all there. A clear error names the first missing file.
    public static func locate(in directory: URL, variant: String? = nil) throws -> ChatterboxFiles {
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path) }
        func paths(_ suffix: String) -> [String] { graphs.map { "onnx/\($0)\(suffix).onnx" } }
        let chosen: (name: String, suffix: String)
        if let variant {
            guard let known = variants.first(where: { $0.name == variant }) else {
                throw ModelError(.badModel, "Chatterbox Turbo has no variant '\(variant)' (variants: "
                    + variants.map(\.name).joined(separator: ", ") + ")")
            }
            chosen = known
        } else {
            chosen = variants.first { paths($0.suffix).allSatisfy(exists) } ?? variants[0]
        }
        let needed = paths(chosen.suffix) + ["tokenizer.json"]
        if let missing = needed.first(where: { !exists($0) }) {
            let pull = chosen.name == "fp32" ? "chatterbox-turbo" : "chatterbox-turbo:\(chosen.name)"
            throw ModelError(.badModel, "Chatterbox Turbo (\(chosen.name)) is missing \(directory.appendingPathComponent(missing).path): "
                + "install it with `warble models pull \(pull)`")
        }
        let urls = needed.map { directory.appendingPathComponent($0) }
        return ChatterboxFiles(variant: chosen.name, speechEncoder: urls[0], embedTokens: urls[1], languageModel: urls[2],
                               conditionalDecoder: urls[3], tokenizer: urls[4])
    }
}
