import Foundation

/// OpenAI's streamed transcription events (`stream=true`), as server-sent `data:` lines.
enum TranscriptEvents {
    struct Delta: Encodable {
        var type = "transcript.text.delta"
        var delta: String
    }

    struct Done: Encodable {
        var type = "transcript.text.done"
        var text: String
        var usage: TranscriptResponseFormat.Usage
    }

    /// A segment's text as a delta; the first loses its leading space, as the whole text does.
    static func delta(_ text: String, first: Bool) -> Data {
        event(Delta(delta: first ? String(text.drop { $0 == " " }) : text))
    }

    /// The closing event with the whole text (the segments joined as the non-streamed answer joins them).
    static func done(_ texts: [String], seconds: Double) -> Data {
        let text = texts.joined().trimmingCharacters(in: .whitespacesAndNewlines)
        return event(Done(text: text, usage: .init(seconds: seconds)))
    }

    /// An `error` event (the same as the speech stream's).
    static func error(_ error: APIError) -> Data { SpeechStreamFraming.errorEvent(error) }

    private static func event(_ value: some Encodable) -> Data { SpeechStreamFraming.sse(value) }
}
