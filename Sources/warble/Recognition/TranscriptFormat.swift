import ArgumentParser
import Foundation
import WarbleSpeech

/// How a transcript is written: plain text, SubRip, WebVTT or JSON (segments with times).
enum TranscriptFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, srt, vtt, json

    /// With `words` (segments that carry word times): text is a line per word (start, end, word,
    /// tab-separated), SubRip and WebVTT a cue per word, JSON each segment's `words`.
    func render(_ segments: [TranscriptSegment], language: String?, duration: Double, words: Bool = false) throws -> String {
        let cues = words ? Self.wordCues(segments) : segments
        switch self {
        case .text where words:
            return cues.map { String(format: "%.2f\t%.2f\t", $0.start, $0.end) + $0.text }.joined(separator: "\n") + "\n"
        case .text:
            return segments.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n") + "\n"
        case .srt:
            return TranscriptRendering.subRip(cues)
        case .vtt:
            return TranscriptRendering.webVTT(cues)
        case .json:
            struct Document: Encodable {
                let text: String
                let language: String?
                let duration: Double
                let segments: [TranscriptSegment]
            }
            let text = TranscriptRendering.text(segments)
            let document = Document(text: text, language: language ?? segments.first?.language, duration: duration,
                                    segments: segments)
            return try WarbleJSON.string(document, pretty: true) + "\n"
        }
    }

    /// Each word of the segments as a segment of its own (text without the leading space).
    static func wordCues(_ segments: [TranscriptSegment]) -> [TranscriptSegment] {
        segments.flatMap { segment in
            (segment.words ?? []).map {
                TranscriptSegment(start: $0.start, end: $0.end, text: $0.word.trimmingCharacters(in: .whitespaces),
                                  tokens: [], language: segment.language)
            }
        }
    }
}
