import Foundation
import ONNXRuntime
import WarbleSpeech

import WarbleAudio

/// The spoken language as Whisper sees it: softmax over the language tokens' logits after
/// `<|startoftranscript|>`.
public struct WhisperLanguageDetection: Sendable, Hashable {
    public var language: String
    public var probability: Double
    /// Every language with its probability, most likely first.
    public var all: [(language: String, probability: Double)] {
        zip(languages, probabilities).sorted { $0.1 > $1.1 }.map { ($0.0, $0.1) }
    }
    let languages: [String]
    let probabilities: [Double]
}

extension WhisperModel {
    /// Detects the language of the first 30 s of `features` (`[frames, melCount]`), as faster-whisper
    /// does when no language is given: all frames of the first window (the last frame included),
    /// zero-padded to 3000.
    public func detectLanguage(features: FeatureMatrix, startFrame: Int = 0, options: RunOptions? = nil) throws -> WhisperLanguageDetection {
        let c = configuration
        guard c.multilingual else {
            return WhisperLanguageDetection(language: "en", probability: 1, languages: ["en"], probabilities: [1])
        }
        let encoding = try encode(window: window(of: features, start: startFrame, count: c.frames), options: options)
        return try detectLanguage(encoding: encoding, options: options)
    }

    func detectLanguage(encoding: WhisperEncoding, options: RunOptions? = nil) throws -> WhisperLanguageDetection {
        let c = configuration
        var state = try WhisperDecodingState(model: self, encoding: encoding, batch: 1, runOptions: options)
        let row = try state.step([[c.specialTokens.sot]]).row(0)
        let logits = c.languageIDs.map { row[$0] }
        let probabilities = LogitMath.logSoftmax(logits).map { exp($0) }
        let best = probabilities.indices.max { probabilities[$0] < probabilities[$1] }!
        return WhisperLanguageDetection(language: c.languageCodes[best], probability: probabilities[best],
                                        languages: c.languageCodes, probabilities: probabilities)
    }
}
