import Foundation
import Hummingbird
import Logging
import WarbleAudio
import WarbleSpeech

/// `POST /v1/audio/transcriptions` and `/v1/audio/translations`: a multipart upload (within the
/// upload limit) is checked and decoded, waits for a slot (shared with speech), and is transcribed
/// whole; the answer is the transcript in the requested `response_format`. A client that
/// disconnects cancels the transcription; a request past the time limit gets 503.
struct TranscriptionRoute: Sendable {
    let backend: any TranscriptionBackend
    let configuration: ServerConfiguration
    let admission: AdmissionControl
    let catalog: RecognitionCatalog

    func handle(_ request: Request, context: some RequestContext, task: TranscriptionOptions.Task) async throws -> Response {
        let started = ContinuousClock.now
        let deadline = started + configuration.requestTimeLimit
        var request = request
        let form = try TranscriptionForm(try await MultipartForm.read(&request, limit: configuration.maxUploadBytes), task: task)
        var model = try await catalog.model(form.model, task: task, language: form.language)
        if let language = form.language, !model.languages.contains(language) {
            throw APIError.badRequest("language '\(language)' is not one \(model.id) accepts; "
                + (model.languages.count == 1 ? "it is English-only (en); use a multilingual model for other languages"
                                              : "use one of \(model.languages.joined(separator: ", "))"),
                param: "language", code: "invalid_value")
        }
        let audio = try form.audio(limits: DecodeLimits(maximumSeconds: configuration.maxUploadSeconds))
        var options = TranscriptionOptions(language: form.language, task: task, beamSize: 5)
        // OpenAI: temperature 0 (the default) raises the temperature when a window fails the
        // log-probability or compression thresholds; any other value is used alone.
        if let temperature = form.temperature, temperature > 0 { options.temperatures = [temperature] }
        options.initialPrompt = form.prompt
        options.wordTimestamps = form.granularities.contains(.word)

        let permit = try await admission.acquire(waitingAtMost: deadline - .now)
        do {
            // Hearing the language is model work: it waits its turn like the transcription.
            model = try await catalog.model(for: audio, chosen: model, requested: form.model, language: form.language, task: task)
        } catch {
            await permit.release(.failed)
            throw translate(error)
        }
        let logger = context.logger
        logger.info("transcription started", metadata: [
            "model": "\(model.id)", "task": "\(task.rawValue)", "format": "\(form.responseFormat.rawValue)",
            "seconds": "\(String(format: "%.1f", audio.duration))",
        ])
        if form.stream {
            return streamed(audio, model: model.id, options: options, request: request, permit: permit, deadline: deadline,
                            logger: logger, started: started)
        }
        let segments: [TranscriptSegment]
        do {
            let stream = backend.transcribe(audio, model: model.id, options: options)
            let limit = configuration.requestTimeLimit
            segments = try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await Self.collect(stream, before: deadline, limit: limit)
            }
        } catch {
            let translated = translate(error).closingConnection()
            await permit.release(error is CancellationError ? .cancelled : translated.status.code >= 500 ? .failed : .refused)
            if error is CancellationError {
                logger.info("client went away; transcription cancelled",
                            metadata: ["ms": "\(started.millisecondsElapsed)"])
                throw error
            }
            throw translated
        }
        await permit.release(.completed)
        logger.info("transcription finished", metadata: [
            "segments": "\(segments.count)", "ms": "\(started.millisecondsElapsed)",
        ])
        let language = task == .translate ? "en" : (segments.first?.language ?? form.language ?? model.languages[0])
        let body = form.responseFormat.body(segments, task: task, language: language, duration: audio.duration,
                                            granularities: form.granularities)
        // `Connection: close`: see `APIError.closingConnection`.
        return Response(status: .ok, headers: [.contentType: form.responseFormat.contentType, .cacheControl: "no-store",
                                               .connection: "close"],
                        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `stream=true`: OpenAI's transcription events as server-sent events, a segment at a time:
    /// `transcript.text.delta` with each segment's text, then `transcript.text.done` with the whole
    /// text and the usage; a failure after the start is an `error` event.
    private func streamed(_ audio: AudioBuffer, model: String, options: TranscriptionOptions, request: Request,
                          permit: AdmissionPermit, deadline: ContinuousClock.Instant, logger: Logger,
                          started: ContinuousClock.Instant) -> Response {
        let segments = Self.bounded(backend.transcribe(audio, model: model, options: options), before: deadline,
                                    timeout: TranscriptionTimeout(limit: configuration.requestTimeLimit))
        let duration = audio.duration
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store",
                                               .connection: "close"],
                        body: ResponseBody { writer in
            var texts: [String] = []
            do {
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    do {
                        for try await segment in segments {
                            texts.append(segment.text)
                            try await writer.write(ByteBuffer(bytes: TranscriptEvents.delta(segment.text, first: texts.count == 1)))
                        }
                        try Task.checkCancellation()
                        try await writer.write(ByteBuffer(bytes: TranscriptEvents.done(texts, seconds: duration)))
                    } catch let error where !(error is CancellationError) {
                        logger.error("transcription failed after the response started", metadata: ["error": "\(error)"])
                        try await writer.write(ByteBuffer(bytes: TranscriptEvents.error(translate(error))))
                    }
                }
                try await writer.finish(nil)
                await permit.release(.completed)
                logger.info("transcription finished", metadata: ["segments": "\(texts.count)", "ms": "\(started.millisecondsElapsed)"])
            } catch {
                await permit.release(error is CancellationError ? .cancelled : .failed)
                logger.info("transcription stream ended early", metadata: ["error": "\(error)"])
                throw error
            }
        })
    }

    /// `stream`, ended with `timeout` once `deadline` passes; a consumer that stops cancels the work.
    static func bounded<Element: Sendable>(_ stream: AsyncThrowingStream<Element, any Error>,
                                           before deadline: ContinuousClock.Instant,
                                           timeout: some Error & Sendable) -> AsyncThrowingStream<Element, any Error> {
        let (bounded, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let producer = Task {
            do {
                for try await element in stream { continuation.yield(element) }
                try Task.checkCancellation()
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let timer = Task {
            try await Task.sleep(until: deadline, clock: .continuous)
            continuation.finish(throwing: timeout)
            producer.cancel()
        }
        continuation.onTermination = { _ in
            producer.cancel()
            timer.cancel()
        }
        return bounded
    }

    /// The multipart form, within the upload limit (413 beyond it).
    /// Every segment of `stream`, failing once `deadline` passes.
    static func collect(_ stream: AsyncThrowingStream<TranscriptSegment, any Error>,
                        before deadline: ContinuousClock.Instant, limit: Duration) async throws -> [TranscriptSegment] {
        try await withThrowingTaskGroup(of: [TranscriptSegment].self) { group in
            group.addTask {
                var segments: [TranscriptSegment] = []
                for try await segment in stream { segments.append(segment) }
                // A cancelled consumer ends the stream early without an error.
                try Task.checkCancellation()
                return segments
            }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                throw TranscriptionTimeout(limit: limit)
            }
            defer { group.cancelAll() }
            return try await group.next() ?? []
        }
    }

    /// Errors of a transcription in OpenAI's shape: bad audio is the client's (400), a broken model
    /// or a run failure the server's (500), the time limit 503.
    private func translate(_ error: any Error) -> APIError {
        switch error {
        case let timeout as TranscriptionTimeout:
            return APIError(.serviceUnavailable, timeout.description, type: "server_error", code: "timeout")
        case let error as ModelError:
            switch error.kind {
            case .badInput: return .badRequest(error.message, param: "file", code: "invalid_value")
            case .unknownVoice: return .badRequest(error.message, param: "language", code: "invalid_value")
            case .badModel, .failed: return .internalError(error.message)
            }
        default:
            return APIError(translating: error)
        }
    }
}

/// A transcription ran past the server's time limit.
struct TranscriptionTimeout: Error, CustomStringConvertible {
    let limit: Duration
    var description: String {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        return "transcription did not finish within the \(String(format: "%g", seconds)) s time limit"
    }
}
