import Foundation

/// A transcript as text: the whole text, SubRip (`.srt`) and WebVTT (`.vtt`) subtitles. Shared by
/// `warble transcribe` and the server's transcription routes.
public enum TranscriptRendering {
    /// The segments' text joined into one string, trimmed (what OpenAI's `text` holds).
    public static func text(_ segments: [TranscriptSegment]) -> String {
        segments.map(\.text).joined().trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// SubRip: numbered cues `HH:MM:SS,mmm --> HH:MM:SS,mmm`, separated by blank lines.
    public static func subRip(_ segments: [TranscriptSegment]) -> String {
        segments.enumerated().map { index, s in
            "\(index + 1)\n\(clock(s.start, separator: ",")) --> \(clock(s.end, separator: ","))\n"
                + "\(s.text.trimmingCharacters(in: .whitespaces))\n"
        }.joined(separator: "\n")
    }

    /// WebVTT: the `WEBVTT` header, then cues `HH:MM:SS.mmm --> HH:MM:SS.mmm`.
    public static func webVTT(_ segments: [TranscriptSegment]) -> String {
        "WEBVTT\n\n" + segments.map { s in
            "\(clock(s.start, separator: ".")) --> \(clock(s.end, separator: "."))\n"
                + "\(s.text.trimmingCharacters(in: .whitespaces))\n"
        }.joined(separator: "\n")
    }

    /// `HH:MM:SS,mmm` (SubRip) or `HH:MM:SS.mmm` (WebVTT).
    public static func clock(_ seconds: Double, separator: String) -> String {
        let milliseconds = Int((max(0, seconds) * 1000).rounded())
        let h = milliseconds / 3_600_000, m = milliseconds / 60_000 % 60, s = milliseconds / 1000 % 60
        return String(format: "%02d:%02d:%02d%@%03d", h, m, s, separator, milliseconds % 1000)
    }
}
