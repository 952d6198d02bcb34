import Foundation
import WarbleSpeech

/// One live caption session: 16 kHz mono audio in as the client sends it, caption events out
/// (`LiveEvents`), each settled line translated when the session has a target language. The audio waits
/// in a bounded queue (a client that outruns the recogniser is told so, 429), the whole session hears at
/// most `maxSeconds`, and the events wait in a bounded buffer until the client reads them (one reader).
actor LiveSession {
    /// Samples a second, as 16-bit little-endian mono PCM.
    static let sampleRate = 16_000
    /// Audio chunks waiting for the recogniser before the next is refused.
    static let queuedChunks = 64
    /// Events kept for a reader that has not come yet (the oldest partials and lines go first).
    static let bufferedEvents = 1024

    struct Settings: Sendable {
        var model: String
        var language: String?
        /// The language each settled line is translated into (nil: none).
        var translation: LanguagePair?
    }

    nonisolated let id: String
    nonisolated let settings: Settings
    private let maxSamples: Int
    private let input: AsyncThrowingStream<[Float], any Error>.Continuation
    private let output: AsyncStream<Data>.Continuation
    private var events: AsyncStream<Data>?
    private let worker: Task<Void, Never>
    private var heardSamples = 0
    private var inputEnded = false
    /// When the client last sent audio or came for the events.
    private(set) var lastActivity = ContinuousClock.now

    init(id: String, settings: Settings, transcriber: LiveTranscriber, translator: any TranslationBackend, maxSeconds: Double) {
        self.id = id
        self.settings = settings
        maxSamples = Int(min(maxSeconds, 1e7) * Double(Self.sampleRate))
        let (audio, input) = AsyncThrowingStream<[Float], any Error>.makeStream(bufferingPolicy: .bufferingOldest(Self.queuedChunks))
        let (events, output) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferedEvents))
        self.input = input
        self.output = output
        self.events = events
        worker = Task {
            await Self.caption(audio, transcriber: transcriber, translator: translator, translation: settings.translation, into: output)
        }
    }

    /// Recognises `audio` as it comes, writing the events; ends with `done`, or `error` when recognition fails.
    private static func caption(_ audio: AsyncThrowingStream<[Float], any Error>, transcriber: LiveTranscriber,
                                translator: any TranslationBackend, translation: LanguagePair?,
                                into output: AsyncStream<Data>.Continuation) async {
        var finals = 0, lastEnd = 0.0
        do {
            for try await event in transcriber.events(from: audio) {
                switch event {
                case .partial(let partial):
                    output.yield(LiveEvents.partial(partial))
                case .utterance(let utterance):
                    lastEnd = utterance.end
                    guard !utterance.text.isEmpty else { continue }
                    finals += 1
                    output.yield(LiveEvents.final(finals, utterance))
                    guard let translation else { continue }
                    do {
                        let result = try await translator.translate(utterance.text, pair: translation)
                        output.yield(LiveEvents.translation(finals, text: result.text, pair: translation, model: result.model))
                    } catch let error where !(error is CancellationError) {
                        output.yield(LiveEvents.error(TextTranslationRoute.translate(error)))
                    }
                }
            }
            output.yield(LiveEvents.done(finals: finals, seconds: lastEnd))
        } catch is CancellationError {
        } catch {
            output.yield(LiveEvents.error(APIError(translating: error)))
        }
        output.finish()
    }

    /// Queues `samples` for the recogniser.
    func feed(_ samples: [Float]) throws {
        lastActivity = .now
        guard !inputEnded else {
            throw APIError(.conflict, "live session \(id) has ended its input: start a new session", param: "id", code: "session_ended")
        }
        guard heardSamples + samples.count <= maxSamples else {
            throw APIError.badRequest("live session \(id) has heard \(heardSamples / Self.sampleRate) s, the limit is "
                + "\(maxSamples / Self.sampleRate) s (--max-upload-seconds): end it and start another", code: "audio_too_long")
        }
        switch input.yield(samples) {
        case .enqueued:
            heardSamples += samples.count
        case .dropped:
            throw APIError.busy("live session \(id): the recogniser is \(Self.queuedChunks) chunks behind; send the chunk again later",
                                retryAfterSeconds: 1)
        case .terminated:
            throw APIError(.conflict, "live session \(id) has ended", param: "id", code: "session_ended")
        @unknown default:
            throw APIError.internalError("live session \(id): the audio queue refused the chunk")
        }
    }

    /// The events, once (a second reader is 409).
    func takeEvents() throws -> AsyncStream<Data> {
        lastActivity = .now
        guard let events else {
            throw APIError(.conflict, "live session \(id)'s events are already being read", param: "id", code: "events_taken")
        }
        self.events = nil
        return events
    }

    /// No more audio: the speech in progress is recognised, then the events end with `done`.
    func endInput() {
        inputEnded = true
        input.finish()
    }

    /// Stops at once (the reader left, or the session expired): `reason` becomes the last event, if any.
    func cancel(reason: APIError?) {
        inputEnded = true
        // The events end first: finishing the input first let the recogniser see the audio's end and write `done`
        // (and finish the events) before `reason` was written, so an expired session's reader saw `done`.
        if let reason { output.yield(LiveEvents.error(reason)) }
        output.finish()
        worker.cancel()
        input.finish()
    }

    var seconds: Double { Double(heardSamples) / Double(Self.sampleRate) }
}
