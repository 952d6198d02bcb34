import Foundation
import Hummingbird
import Logging
import WarbleSpeech

/// `POST /v1/audio/speech`: validates, waits for a synthesis slot, takes the first chunk before
/// answering (so bad SSML or an unknown voice still get their status code), then streams the rest.
/// A client that disconnects cancels the synthesis, whether it waits for a slot, its first chunk, or
/// the rest (one `HangUpWatch` from the body's end to the answer's); a request past the time limit is cut off.
struct SpeechRoute<Backend: SpeechBackend>: Sendable {
    let backend: Backend
    let configuration: ServerConfiguration
    let admission: AdmissionControl
    let catalog: ModelCatalog<Backend>
    let metrics: ServerMetrics

    func handle(_ request: Request, context: some RequestContext) async throws -> Response {
        let started = ContinuousClock.now
        let deadline = started + configuration.requestTimeLimit
        var request = request
        let speech = try await decode(&request)
        let (synthesis, voice) = try await plan(speech)
        let format = speech.responseFormat ?? .mp3
        let logger = context.logger
        let limit = configuration.requestTimeLimit
        let admission = self.admission

        // From here the connection is watched for a hang-up, which cancels whatever the request waits for.
        let watch = HangUpWatch(request)
        let permit: AdmissionPermit
        do {
            permit = try await watch.run { try await admission.acquire(waitingAtMost: deadline - .now) }
        } catch {
            await watch.stop()
            if error is CancellationError {
                logger.info("client went away while waiting for a slot", metadata: ["ms": "\(started.millisecondsElapsed)"])
                throw error
            }
            throw APIError(translating: error).closingConnection()
        }
        let admitted = ContinuousClock.now
        let job = backend.relay(synthesis, voice: voice, observer: nil)
        let first: AudioChunk?
        do {
            first = try await watch.run { try await job.next(before: deadline, limit: limit) }
        } catch {
            await job.close()
            await watch.stop()
            let translated = translate(error)
            await permit.release(error is CancellationError ? .cancelled : translated.status.code >= 500 ? .failed : .refused)
            if error is CancellationError {
                logger.info("client went away before the first chunk; synthesis cancelled",
                            metadata: ["ms": "\(started.millisecondsElapsed)"])
                throw error
            }
            throw translated.closingConnection()
        }
        self.metrics.firstAudio(after: ContinuousClock.now - started)
        let inputRate = first?.sampleRate ?? voice.sampleRate
        let metrics = self.metrics
        let outputRate = format.outputRate(for: inputRate)
        let events = speech.streamFormat == .sse
        var headers: HTTPFields = [
            .contentType: events ? "text/event-stream" : format.contentType,
            .cacheControl: "no-store",
            // The watch for a hang-up ends the connection's request stream: the connection cannot
            // serve another request, and the header tells the client so.
            .connection: "close",
        ]
        headers[.init("X-Warble-Voice")!] = voice.id
        headers[.init("X-Warble-Sample-Rate")!] = String(outputRate)
        let input = synthesis.text
        logger.info("synthesis started", metadata: [
            "voice": "\(voice.id)", "format": "\(format.rawValue)", "sse": "\(events)",
            "characters": "\(input.count)", "first_chunk_ms": "\(started.millisecondsElapsed)",
        ])

        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            func end(_ outcome: AdmissionControl.Outcome) async {
                await job.close()
                await watch.stop()
                await permit.release(outcome)
            }
            do {
                try await watch.run {
                    let framing = try SpeechStreamFraming(
                        encoder: format.encoder(inputRate: inputRate, knownFrames: events ? nil : first?.requestFrames,
                                               incremental: events),
                        events: events, input: input)
                    var frames = first?.samples.count ?? 0
                    defer { metrics.synthesized(audioSeconds: Double(frames) / Double(max(1, inputRate)), in: ContinuousClock.now - admitted) }
                    do {
                        if let first {
                            for piece in try framing.pieces(for: first) { try await writer.write(ByteBuffer(bytes: piece)) }
                        }
                        while let chunk = try await job.next(before: deadline, limit: limit) {
                            frames += chunk.samples.count
                            for piece in try framing.pieces(for: chunk) { try await writer.write(ByteBuffer(bytes: piece)) }
                        }
                        // A stream cut short by the client's going away can end without an error: it is a
                        // cancellation all the same, never a finished synthesis.
                        try Task.checkCancellation()
                        for piece in try framing.finish() { try await writer.write(ByteBuffer(bytes: piece)) }
                    } catch let error where events && !(error is CancellationError) {
                        // Server-sent events can still say what went wrong; raw audio can only be cut off.
                        logger.error("synthesis failed after the response started", metadata: ["error": "\(error)"])
                        try await writer.write(ByteBuffer(bytes: SpeechStreamFraming.errorEvent(translate(error))))
                    }
                }
                try await writer.finish(nil)
                await end(.completed)
                logger.info("synthesis finished", metadata: ["ms": "\(started.millisecondsElapsed)"])
            } catch is CancellationError {
                await end(.cancelled)
                logger.info("client went away; synthesis cancelled", metadata: ["ms": "\(started.millisecondsElapsed)"])
                throw CancellationError()
            } catch {
                await end(.failed)
                logger.error("synthesis failed after the response started; connection cut", metadata: ["error": "\(error)"])
                throw error
            }
        })
    }

    /// The body, within the size limit, as a speech request.
    private func decode(_ request: inout Request) async throws -> SpeechRequestBody {
        let body = try await request.collectJSONBody(limit: configuration.maxBodyBytes)
        do {
            return try JSONDecoder().decode(SpeechRequestBody.self, from: Data(buffer: body))
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(translating: error)
        }
    }

    /// The synthesis request and voice for a validated body.
    private func plan(_ speech: SpeechRequestBody) async throws -> (SynthesisRequest, VoiceDescription) {
        guard !speech.input.allSatisfy(\.isWhitespace) else {
            throw APIError.badRequest("input is empty: give the text (or SSML) to speak", param: "input", code: "invalid_input")
        }
        guard speech.input.count <= configuration.maxInputCharacters else {
            throw APIError.badRequest("input has \(speech.input.count) characters; the limit is \(configuration.maxInputCharacters)",
                                      param: "input", code: "string_above_max_length")
        }
        let speed = speech.speed ?? 1
        guard (0.25...4).contains(speed) else {
            throw APIError.badRequest("speed \(speed) is outside 0.25...4", param: "speed", code: "invalid_value")
        }
        let format = speech.responseFormat ?? .mp3
        guard format.isAvailable else {
            throw format.unavailable(available: AudioResponseFormat.allCases.filter(\.isAvailable))
        }
        let voice = try await catalog.voice(speech.voice, model: speech.model)
        var controls = speech.controls
        if let instructions = speech.instructions, !instructions.allSatisfy(\.isWhitespace),
           await backend.acceptsInstructions(voice: voice.id) {
            controls.instruction = instructions
            do { try controls.validate() } catch {
                throw APIError.badRequest(error.message.replacingOccurrences(of: "the instruction", with: "instructions"),
                                          param: "instructions",
                                          code: instructions.count > VoiceControls.instructionLimit ? "string_above_max_length" : "invalid_value")
            }
        }
        var request = SynthesisRequest(text: speech.input, isSSML: speech.isSSML, voice: voice.id, rate: speed,
                                       maximumDuration: configuration.maxAudioSeconds, controls: controls)
        if await catalog.speaksAsEnglish(voice, requested: speech.voice) { request.language = "en" }
        return (request, voice)
    }

    private func translate(_ error: any Error) -> APIError {
        if let timeout = error as? SynthesisTimeout {
            return APIError(.serviceUnavailable, timeout.description, type: "server_error", code: "timeout")
        }
        return APIError(translating: error)
    }
}
