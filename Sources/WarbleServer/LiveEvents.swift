import Foundation
import WarbleSpeech

/// The server-sent events of a live caption session (`GET /v1/audio/live/{id}/events`), as `data:` lines
/// whose `type` says what each is: `partial` (the speech in progress, replaced by the next partial or the
/// final), `final` (a settled line, numbered), `translation` (a final's text in the session's language),
/// `done` (the input ended and everything heard was recognised), and `error` (as the other streams).
enum LiveEvents {
    struct Partial: Encodable {
        var type = "partial"
        var start: Double
        var end: Double
        var text: String
    }

    struct Final: Encodable {
        var type = "final"
        var id: Int
        var start: Double
        var end: Double
        var text: String
    }

    struct Translation: Encodable {
        var type = "translation"
        var id: Int
        var text: String
        var source: String
        var target: String
        var model: String
    }

    struct Done: Encodable {
        var type = "done"
        var finals: Int
        var seconds: Double
    }

    static func partial(_ partial: LivePartial) -> Data {
        SpeechStreamFraming.sse(Partial(start: partial.start, end: partial.end, text: partial.text))
    }

    static func final(_ id: Int, _ utterance: LiveUtterance) -> Data {
        SpeechStreamFraming.sse(Final(id: id, start: utterance.start, end: utterance.end, text: utterance.text))
    }

    static func translation(_ id: Int, text: String, pair: LanguagePair, model: String) -> Data {
        SpeechStreamFraming.sse(Translation(id: id, text: text, source: pair.source, target: pair.target, model: model))
    }

    static func done(finals: Int, seconds: Double) -> Data { SpeechStreamFraming.sse(Done(finals: finals, seconds: seconds)) }

    static func error(_ error: APIError) -> Data { SpeechStreamFraming.errorEvent(error) }
}
