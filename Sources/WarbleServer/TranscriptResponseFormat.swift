import Foundation
import WarbleSpeech

/// The `response_format`s of OpenAI's transcription and translation routes, and the body of each.
enum TranscriptResponseFormat: String, CaseIterable, Sendable {
    case json, text, srt, vtt
    case verboseJSON = "verbose_json"

    var contentType: String {
        switch self {
        case .json, .verboseJSON: "application/json"
        case .text: "text/plain; charset=utf-8"
        case .srt: "application/x-subrip; charset=utf-8"
        case .vtt: "text/vtt; charset=utf-8"
        }
    }

    /// The response body for a finished transcript of `duration` seconds of audio.
    /// `language`: the spoken language for transcriptions, "en" for translations. `granularities`:
    /// what `verbose_json` carries (segments, words or both).
    func body(_ segments: [TranscriptSegment], task: TranscriptionOptions.Task, language: String,
              duration: Double, granularities: Set<TimestampGranularity> = [.segment]) -> Data {
        let text = TranscriptRendering.text(segments)
        switch self {
        case .text: return Data((text + "\n").utf8)
        case .srt: return Data(TranscriptRendering.subRip(segments).utf8)
        case .vtt: return Data(TranscriptRendering.webVTT(segments).utf8)
        case .json: return APIJSON.encode(Transcript(text: text, usage: .init(seconds: duration)))
        case .verboseJSON:
            return APIJSON.encode(VerboseTranscript(
                task: task.rawValue, language: LanguageNames.name(language), duration: duration, text: text,
                segments: granularities.contains(.segment)
                    ? segments.enumerated().map { VerboseTranscript.Segment(id: $0, segment: $1) } : nil,
                words: granularities.contains(.word)
                    ? segments.flatMap { ($0.words ?? []).map(VerboseTranscript.Word.init) } : nil,
                usage: .init(seconds: duration)))
        }
    }

    /// OpenAI's usage for audio models billed by duration.
    struct Usage: Encodable {
        var type = "duration"
        var seconds: Double
    }

    /// `json`: the text alone.
    struct Transcript: Encodable {
        var text: String
        var usage: Usage
    }

    /// `verbose_json`: the text, the language (its English name, as OpenAI gives it), the duration,
    /// each segment with Whisper's scores and, when asked for, every word with its times.
    struct VerboseTranscript: Encodable {
        struct Segment: Encodable {
            var id: Int
            /// The segment's start in 10 ms frames: Whisper's window offset is not kept in our
            /// segments, so this is the segment's own start (OpenAI gives the window's).
            var seek: Int
            var start: Double
            var end: Double
            var text: String
            var tokens: [Int]
            var temperature: Double
            var avgLogprob: Double
            var compressionRatio: Double
            var noSpeechProb: Double
            /// Warble's extension: what else the model says about the segment (SenseVoice: language,
            /// emotion, event); absent for models that say nothing more.
            var tags: [String: String]?

            init(id: Int, segment: TranscriptSegment) {
                self.id = id
                seek = Int((segment.start * 100).rounded(.down))
                start = segment.start
                end = segment.end
                text = segment.text
                tokens = segment.tokens
                temperature = segment.temperature
                avgLogprob = segment.averageLogProbability
                compressionRatio = segment.compressionRatio
                noSpeechProb = segment.noSpeechProbability
                tags = segment.tags
            }
        }
        /// A word as OpenAI gives it: without the leading space Whisper writes, no probability.
        struct Word: Encodable {
            var word: String
            var start: Double
            var end: Double

            init(_ word: TranscriptWord) {
                self.word = word.word.trimmingCharacters(in: .whitespaces)
                start = word.start
                end = word.end
            }
        }
        var task: String
        var language: String
        var duration: Double
        var text: String
        /// Present when segment timestamps were asked for (the default), words when word timestamps were.
        var segments: [Segment]?
        var words: [Word]?
        var usage: Usage
    }
}
