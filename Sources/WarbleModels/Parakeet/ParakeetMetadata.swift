import Foundation
import WarbleSpeech

/// What the encoder's metadata says (sherpa-onnx's export writes every value as a string): the vocabulary
/// (NeMo's count leaves the blank out: the joiner has vocab_size + 1 token logits, the blank last), the
/// prediction network's LSTM layers and width (the decoder's zero states), the subsampling (seconds per encoder
/// frame = 10 ms × it), the mel bins, the feature normalisation, and whether it is a TDT model (sherpa-onnx
/// tells by the `url` containing "tdt").
public struct ParakeetMetadata: Sendable, Equatable {
    /// Token logits of the joiner: vocab_size + 1 (the blank is the last id).
    public var vocabularySize: Int
    public var predictionLayers: Int
    public var predictionHidden: Int
    public var subsamplingFactor: Int
    public var featureCount: Int
    /// "per_feature", or empty for none.
    public var normalizeType: String
    public var isTDT: Bool

    public var blank: Int { vocabularySize - 1 }

    /// Reads the metadata; a clear error naming the key that is missing or malformed.
    public init(_ custom: [String: String], source: String) throws {
        func int(_ key: String, default fallback: Int? = nil) throws -> Int {
            guard let text = custom[key] else {
                if let fallback { return fallback }
                throw ModelError(.badModel, "\(source) is not a sherpa-onnx NeMo transducer export: its metadata has no '\(key)'")
            }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw ModelError(.badModel, "\(source): metadata '\(key)' is not an integer: \(text)")
            }
            return value
        }
        vocabularySize = try int("vocab_size") + 1
        predictionLayers = try int("pred_rnn_layers")
        predictionHidden = try int("pred_hidden")
        subsamplingFactor = try int("subsampling_factor", default: 8)
        featureCount = try int("feat_dim", default: 80)
        let normalize = custom["normalize_type"] ?? ""
        normalizeType = normalize == "NA" ? "" : normalize
        isTDT = (custom["url"] ?? "").contains("tdt")
        guard vocabularySize > 1, predictionLayers > 0, predictionHidden > 0, subsamplingFactor > 0, featureCount >= 3 else {
            throw ModelError(.badModel, "\(source): impossible metadata (vocab_size \(vocabularySize - 1), pred_rnn_layers "
                + "\(predictionLayers), pred_hidden \(predictionHidden), subsampling_factor \(subsamplingFactor), feat_dim \(featureCount))")
        }
        guard normalizeType.isEmpty || normalizeType == "per_feature" else {
            throw ModelError(.badModel, "\(source): normalize_type '\(normalizeType)' is not supported (per_feature or none, as sherpa-onnx)")
        }
    }

    /// Seconds per encoder frame (10 ms feature frames × the subsampling).
    public var frameSeconds: Double { 0.01 * Double(subsamplingFactor) }
}
