import ArgumentParser
import Foundation
import WarbleModels

/// How a transcript is written: plain text, SubRip, WebVTT or JSON (segments with times).
enum TranscriptFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, srt, vtt, json

    func render(_ segments: [TranscriptSegment], language: String?, duration: Double) throws -> String {
        switch self {
        case .text:
            return segments.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n") + "\n"
        case .srt:
            return segments.enumerated().map { index, s in
                "\(index + 1)\n\(Self.clock(s.start, separator: ",")) --> \(Self.clock(s.end, separator: ","))\n"
                    + "\(s.text.trimmingCharacters(in: .whitespaces))\n"
            }.joined(separator: "\n")
        case .vtt:
            return "WEBVTT\n\n" + segments.map { s in
                "\(Self.clock(s.start, separator: ".")) --> \(Self.clock(s.end, separator: "."))\n"
                    + "\(s.text.trimmingCharacters(in: .whitespaces))\n"
            }.joined(separator: "\n")
        case .json:
            struct Document: Encodable {
                let text: String
                let language: String?
                let duration: Double
                let segments: [TranscriptSegment]
            }
            let text = segments.map(\.text).joined().trimmingCharacters(in: .whitespaces)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let document = Document(text: text, language: language ?? segments.first?.language, duration: duration,
                                    segments: segments)
            return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
        }
    }

    /// `HH:MM:SS,mmm` (SubRip) or `HH:MM:SS.mmm` (WebVTT).
    static func clock(_ seconds: Double, separator: String) -> String {
        let milliseconds = Int((max(0, seconds) * 1000).rounded())
        let h = milliseconds / 3_600_000, m = milliseconds / 60_000 % 60, s = milliseconds / 1000 % 60
        return String(format: "%02d:%02d:%02d%@%03d", h, m, s, separator, milliseconds % 1000)
    }
}
