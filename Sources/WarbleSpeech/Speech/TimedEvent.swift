/// A speech event as the CLI (`say --events json`) and the server (`stream_format: sse`) print it:
/// `{"type": PREFIX + "word", "time", "text", "start", "end", "estimated"}`, a mark with its `name`, a
/// sentence with its text and byte range.
public struct TimedEvent: Encodable, Sendable, Equatable {
    public var type: String
    /// Seconds from the start of the audio.
    public var time: Double
    public var name: String?
    public var text: String?
    /// UTF-8 byte offsets into the request's text.
    public var start: Int?
    public var end: Int?
    public var estimated: Bool?

    /// `event` at `time` seconds; `text` gives the request's text in a byte range.
    public init(_ event: SpeechEvent, time: Double, typePrefix: String = "", text: (Range<Int>) -> String) {
        self.time = time
        switch event {
        case .mark(let name, _):
            type = typePrefix + "mark"
            self.name = name
        case .word(let range, _, let estimated):
            type = typePrefix + "word"
            (self.text, start, end, self.estimated) = (text(range), range.lowerBound, range.upperBound, estimated)
        case .sentence(let range, _):
            type = typePrefix + "sentence"
            (self.text, start, end) = (text(range), range.lowerBound, range.upperBound)
        }
    }
}
