import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech

/// `SpeechRecognizer` on a shared `SenseVoiceModel`: audio up to the configured maximum (120 s) in one forward
/// pass, as sherpa-onnx decodes a file; longer audio cut at its quietest moments. Each piece is a segment with
/// its words (timed by their tokens) and the model's tags (language, emotion, event). Language: the options'
/// (a prompt the model knows) or auto; no inverse text normalisation (sherpa-onnx's default).
public struct SenseVoiceRecognizer: SpeechRecognizer {
    public let model: SenseVoiceModel

    public init(model: SenseVoiceModel) {
        self.model = model
    }

    public func transcribe(_ audio: AudioBuffer, options: TranscriptionOptions) -> AsyncThrowingStream<TranscriptSegment, any Error> {
        let model = model
        return BlockingWork.stream { cancel, yield in
            guard options.task == .transcribe else {
                throw ModelError(.badInput, "SenseVoice transcribes only (no translate task): transcribe, then "
                    + "translate the text (warble translate-text)")
            }
            let language = try model.languagePrompt(options.language)
            let samples = try SenseVoiceFrontEnd.samples(audio)
            try PieceDecoding.segments(samples, rate: SenseVoiceFrontEnd.sampleRate, maximumSeconds: model.maximumSeconds,
                                       cancel: cancel, yield: yield) { piece, start, end in
                model.segment(try model.decode(piece, language: language, cancel: cancel), start: start, end: end, options: options)
            }
        }
    }
}

extension SenseVoiceModel {
    /// Decodes 16 kHz samples in one forward pass (no ITN); an empty result when they are shorter than a frame.
    public func decode(_ samples: [Float], language: Int32, withITN: Bool = false,
                       cancel: CancellationToken = .init()) throws -> SenseVoiceResult {
        let features = frontEnd(samples)
        guard features.rows > 0 else {
            return SenseVoiceResult(tokens: [], times: [], text: "", language: "", emotion: "", event: "")
        }
        let logits = try self.logits(features, language: language,
                                     textNorm: withITN ? metadata.withITN : metadata.withoutITN, cancel: cancel)
        let frames = min(logits.shape[1], features.rows + SenseVoiceResult.promptFrames)
        return try logits.withUnsafeBufferPointer(of: Float.self) {
            SenseVoiceResult(logits: $0, frames: frames, table: tokens, blank: metadata.blank, frameSeconds: frontEnd.frameSeconds)
        }
    }

    /// A transcript segment of `result` for audio from `start` to `end` seconds.
    func segment(_ result: SenseVoiceResult, start: Double, end: Double, options: TranscriptionOptions) -> TranscriptSegment {
        let words = SenseVoiceWords.words(tokens: result.tokens, times: result.times, table: tokens,
                                          frameSeconds: frontEnd.frameSeconds, offset: start)
        let heard = SenseVoiceResult.name(ofTag: result.language)
        let language = metadata.languages[heard] != nil ? heard : options.language ?? heard
        return TranscriptSegment(start: start, end: end, text: result.text, tokens: result.tokens, language: language,
                                 words: words.map { TranscriptWord(word: $0.word, start: $0.start, end: min($0.end, end), probability: 1) },
                                 tags: result.tagNames)
    }
}
