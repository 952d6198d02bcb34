import WarbleAudio
import Foundation
import WarbleSpeech

/// Frames a request's chunks as the response body: the audio bytes themselves (`stream_format`
/// "audio"), or server-sent events carrying base64 audio plus the marks, words and sentences with
/// their times (`stream_format` "sse", Warble's timing extension of OpenAI's event stream).
///
/// Not `Sendable`: it owns the encoder and belongs to the task writing the response.
final class SpeechStreamFraming {
    let encoder: StreamingAudioEncoder
    let events: Bool
    private let input: String.UTF8View
    private var samplesSoFar = 0

    init(encoder: StreamingAudioEncoder, events: Bool, input: String) {
        self.encoder = encoder
        self.events = events
        self.input = input.utf8
    }

    /// The body pieces for one chunk, in order.
    func pieces(for chunk: AudioChunk) throws -> [Data] {
        let audio = try encoder.encode(chunk.samples)
        defer { samplesSoFar += chunk.samples.count }
        guard events else { return audio.isEmpty ? [] : [audio] }
        var pieces = chunk.events.map { event(for: $0, sampleRate: chunk.sampleRate) }
        if !audio.isEmpty { pieces.append(Self.sse(AudioDelta(audio: audio.base64EncodedString()))) }
        return pieces
    }

    /// The closing pieces: the encoder's tail (or whole compressed file), and in SSE the done event.
    func finish() throws -> [Data] {
        let tail = try encoder.finish()
        guard events else { return tail.isEmpty ? [] : [tail] }
        var pieces: [Data] = []
        if !tail.isEmpty { pieces.append(Self.sse(AudioDelta(audio: tail.base64EncodedString()))) }
        pieces.append(Self.sse(Done(duration: Double(samplesSoFar) / Double(encoder.inputRate),
                                    sampleRate: encoder.outputRate)))
        return pieces
    }

    /// An SSE `error` event for a failure after the response has started.
    static func errorEvent(_ error: APIError) -> Data {
        sse(ErrorEvent(error: .init(message: error.message, type: error.type, param: error.param, code: error.code)))
    }

    private func event(for event: SpeechEvent, sampleRate: Int) -> Data {
        let time = Double(samplesSoFar + event.sampleOffset) / Double(sampleRate)
        return Self.sse(TimedEvent(event, time: time, typePrefix: "speech.", text: text))
    }

    /// The input's text in a UTF-8 byte range (empty when the range falls outside).
    private func text(_ range: Range<Int>) -> String {
        guard range.lowerBound >= 0, range.upperBound <= input.count else { return "" }
        let start = input.index(input.startIndex, offsetBy: range.lowerBound)
        let end = input.index(start, offsetBy: range.count)
        return String(decoding: input[start..<end], as: UTF8.self)
    }

    static func sse(_ payload: some Encodable) -> Data {
        Data("data: ".utf8) + APIJSON.encode(payload) + Data("\n\n".utf8)
    }

    struct AudioDelta: Encodable {
        var type = "speech.audio.delta"
        var audio: String
    }

    struct Done: Encodable {
        struct Usage: Encodable {
            var inputTokens = 0
            var outputTokens = 0
            var totalTokens = 0
        }
        var type = "speech.audio.done"
        var duration: Double
        var sampleRate: Int
        var usage = Usage()
    }

    struct ErrorEvent: Encodable {
        var type = "error"
        var error: APIError.Payload.Detail
    }
}
