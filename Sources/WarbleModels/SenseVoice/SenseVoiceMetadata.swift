import Foundation
import WarbleSpeech

/// What the graph's metadata says (sherpa-onnx's export writes every key as a string): the front end's
/// LFR window and shift, whether samples are used as [-1, 1] floats or 16-bit magnitudes, the CMVN, and
/// the ids of the language and text-normalisation prompts.
public struct SenseVoiceMetadata: Sendable, Equatable {
    public var vocabularySize: Int
    public var blank: Int
    public var lfrWindow: Int
    public var lfrShift: Int
    public var normalizeSamples: Bool
    /// Added to each LFR feature, then multiplied by `inverseStandardDeviation`.
    public var negativeMean: [Float]
    public var inverseStandardDeviation: [Float]
    /// Language code ("auto", "zh", "en", "yue", "ja", "ko") → the `language` input's value.
    public var languages: [String: Int32]
    public var withITN: Int32
    public var withoutITN: Int32

    /// Reads the metadata; a clear error naming the key that is missing or malformed.
    public init(_ custom: [String: String], source: String) throws {
        func string(_ key: String) throws -> String {
            guard let value = custom[key] else {
                throw ModelError(.badModel, "\(source) is not a sherpa-onnx SenseVoice export: its metadata has no '\(key)'")
            }
            return value
        }
        func int(_ key: String) throws -> Int {
            guard let value = Int(try string(key).trimmingCharacters(in: .whitespaces)) else {
                throw ModelError(.badModel, "\(source): metadata '\(key)' is not an integer: \(custom[key] ?? "")")
            }
            return value
        }
        func floats(_ key: String) throws -> [Float] {
            let parts = try string(key).split(separator: ",")
            let values = parts.compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
            guard values.count == parts.count, !values.isEmpty else {
                throw ModelError(.badModel, "\(source): metadata '\(key)' is not a comma-separated list of numbers")
            }
            return values
        }
        vocabularySize = try int("vocab_size")
        blank = custom["blank_id"].flatMap { Int($0) } ?? 0
        lfrWindow = try int("lfr_window_size")
        lfrShift = try int("lfr_window_shift")
        normalizeSamples = try int("normalize_samples") != 0
        negativeMean = try floats("neg_mean")
        inverseStandardDeviation = try floats("inv_stddev")
        withITN = Int32(try int("with_itn"))
        withoutITN = Int32(try int("without_itn"))
        var languages: [String: Int32] = [:]
        for code in ["auto", "zh", "en", "ja", "ko", "yue"] { languages[code] = Int32(try int("lang_\(code)")) }
        self.languages = languages
        guard lfrWindow > 0, lfrShift > 0, vocabularySize > 0 else {
            throw ModelError(.badModel, "\(source): impossible metadata (lfr_window_size \(lfrWindow), lfr_window_shift "
                + "\(lfrShift), vocab_size \(vocabularySize))")
        }
        guard negativeMean.count == inverseStandardDeviation.count, negativeMean.count % lfrWindow == 0 else {
            throw ModelError(.badModel, "\(source): neg_mean (\(negativeMean.count)) and inv_stddev "
                + "(\(inverseStandardDeviation.count)) do not match \(lfrWindow) stacked frames")
        }
    }

    /// Mel bins per input frame (80 for SenseVoice Small).
    public var melCount: Int { negativeMean.count / lfrWindow }
}
