import Foundation
import WarbleAudio
import WarbleSpeech

/// `SpeechRecognizer` on a shared `WhisperModel`: faster-whisper's transcription loop (30 s windows,
/// seeking by timestamp tokens, temperature fallback, no-speech skipping, previous-text prompts).
/// Each call owns its decoding state, so one recognizer serves concurrent requests.
public struct WhisperRecognizer: SpeechRecognizer {
    public let model: WhisperModel

    public init(model: WhisperModel) {
        self.model = model
    }

    public func transcribe(_ audio: AudioBuffer, options: TranscriptionOptions) -> AsyncThrowingStream<TranscriptSegment, any Error> {
        let model = model
        return BlockingWork.stream { cancel, yield in
            let samples = try Self.whisperSamples(audio)
            do {
                try cancel.withRunOptions { runOptions in
                    try WhisperTranscription(model: model, options: options, cancel: cancel, runOptions: runOptions)
                        .run(samples: samples, yield: yield)
                }
            } catch where cancel.isCancelled {
                throw CancellationError()
            }
        }
    }

    /// All segments at once.
    public func transcribeAll(_ audio: AudioBuffer, options: TranscriptionOptions) async throws -> [TranscriptSegment] {
        var segments: [TranscriptSegment] = []
        for try await segment in transcribe(audio, options: options) { segments.append(segment) }
        // A cancelled consumer ends the stream early without an error: report it as one.
        try Task.checkCancellation()
        return segments
    }

    /// The language spoken in the first 30 s of `audio` (always English for an English-only model), off the
    /// cooperative pool; cancelling the task stops the encoder or decoder run under way.
    public func detectLanguage(_ audio: AudioBuffer) async throws -> WhisperLanguageDetection {
        let model = model
        return try await BlockingWork.run(cancel: CancellationToken()) { cancel in
            let samples = try Self.whisperSamples(audio)
            return try cancel.withRunOptions { options in
                try model.detectLanguage(features: WhisperLogMel(melCount: model.configuration.melCount)(samples), options: options)
            }
        }
    }

    /// Mono 16 kHz samples of any buffer; a clear error when there is no audio at all.
    public static func whisperSamples(_ audio: AudioBuffer) throws -> [Float] {
        try RecognitionAudio.monoSamples(audio, sampleRate: WhisperLogMel.sampleRate)
    }
}
