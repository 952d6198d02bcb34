import ArgumentParser
import Foundation
import WarbleSpeech

/// How a transcript is written: plain text, SubRip, WebVTT or JSON (segments with times).
enum TranscriptFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, srt, vtt, json

    func render(_ segments: [TranscriptSegment], language: String?, duration: Double) throws -> String {
        switch self {
        case .text:
            return segments.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n") + "\n"
        case .srt:
            return TranscriptRendering.subRip(segments)
        case .vtt:
            return TranscriptRendering.webVTT(segments)
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
}
