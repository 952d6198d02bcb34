import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech

/// `SpeechRecognizer` on a shared `ParakeetModel`: audio up to the configured maximum (120 s) in one encoder pass, as
/// sherpa-onnx decodes a file; longer audio cut at its quietest moments. Each piece is a segment with its tokens and
/// its words, timed by the tokens' frames and durations. Parakeet transcribes in the language it hears (no prompt).
public struct ParakeetRecognizer: SpeechRecognizer {
    public let model: ParakeetModel

    public init(model: ParakeetModel) {
        self.model = model
    }

    public func transcribe(_ audio: AudioBuffer, options: TranscriptionOptions) -> AsyncThrowingStream<TranscriptSegment, any Error> {
        let model = model
        return BlockingWork.stream { cancel, yield in
            guard options.task == .transcribe else {
                throw ModelError(.badInput, "Parakeet transcribes only (no translate task): transcribe, then "
                    + "translate the text (warble translate-text)")
            }
            let samples = try ParakeetFrontEnd.samples(audio)
            try PieceDecoding.segments(samples, rate: ParakeetFrontEnd.sampleRate, maximumSeconds: model.maximumSeconds,
                                       cancel: cancel, yield: yield) { piece, start, end in
                model.segment(try model.decode(piece, cancel: cancel), start: start, end: end, options: options)
            }
        }
    }
}

extension ParakeetModel {
    /// Decodes 16 kHz samples in one encoder pass; an empty result when they give no frame.
    public func decode(_ samples: [Float], cancel: CancellationToken = .init()) throws -> ParakeetSearch {
        let features = frontEnd(samples)
        guard features.rows > 0 else { return ParakeetSearch() }
        return try ParakeetSearch(encoded: try encode(features, cancel: cancel), model: self, cancel: cancel)
    }

    /// The text of a search, as sherpa-onnx writes it.
    public func text(_ search: ParakeetSearch) -> String { ParakeetText.text(search.tokens, table: tokens) }

    /// Token times in seconds from the start of the decoded audio (frame × 10 ms × subsampling).
    public func times(_ search: ParakeetSearch) -> [Double] { search.frames.map { Double($0) * metadata.frameSeconds } }

    /// A transcript segment of `search` for audio from `start` to `end` seconds.
    func segment(_ search: ParakeetSearch, start: Double, end: Double, options: TranscriptionOptions) -> TranscriptSegment {
        let words = ParakeetText.words(search, table: tokens, frameSeconds: metadata.frameSeconds, offset: start)
        return TranscriptSegment(start: start, end: end, text: text(search), tokens: search.tokens, language: options.language ?? "",
                                 words: words.map { TranscriptWord(word: $0.word, start: min($0.start, end), end: min($0.end, end),
                                                                   probability: 1) })
    }
}
