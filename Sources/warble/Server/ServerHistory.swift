import Foundation
import WarbleAudio
import WarbleEngine
import WarbleHistory
import WarbleServer
import WarbleSpeech

/// `$WARBLE_HOME/history` as `warble serve --history` serves it: the `/v1/history` routes read it, and the
/// speech and transcription requests are kept in it.
struct ServerHistory: HistoryBackend {
    let store: HistoryStore

    func sessions(limit: Int, after: Int64?) async throws -> [HistoryItem] {
        try store.list(limit: limit, after: after).map { HistoryItem(id: $0.id, json: try Self.encode($0)) }
    }

    func search(_ text: String, limit: Int) async throws -> [HistoryItem] {
        try store.search(text, limit: limit).map { HistoryItem(id: $0.id, json: try Self.encode($0)) }
    }

    func session(id: Int64) async throws -> HistoryItem? {
        try store.session(id: id).map { HistoryItem(id: id, json: try Self.encode(ServedSession($0))) }
    }

    func export(id: Int64, to file: URL) async throws -> Bool {
        guard try store.session(id: id) != nil else { return false }
        _ = try store.export(ids: [id], since: nil, to: file)
        return true
    }

    func delete(id: Int64) async throws -> Bool {
        try store.delete(id: id)
    }

    /// Keeps `session`; a history that cannot be written is a warning in the server's log, never a failed request.
    func keep(_ session: NewSession) {
        _ = HistoryRecorder.keeping("request") { try store.record(session) }
    }

    static func encode(_ value: some Encodable) throws -> Data {
        try HistoryCommand.encoded(value, pretty: false)
    }

    /// A request's audio as a 16-bit WAV file's bytes.
    static func wav(_ samples: [Float], sampleRate: Int) -> Data? {
        guard !samples.isEmpty, sampleRate > 0 else { return nil }
        return try? WAVEncoder().encode(AudioBuffer(mono: samples, sampleRate: sampleRate))
    }
}

/// A session as the server shows it: what `history show --json` prints, but its audio without the paths where the
/// server keeps the files (a client learns nothing of the server's disk; `GET /v1/history/{id}/export` has the audio).
struct ServedSession: Encodable {
    struct Audio: Encodable {
        var role: SessionAudioRole
        var sha256: String
        var bytes: Int64
        var format: String
    }

    var summary: SessionSummary
    var timings: [String: Double]
    var texts: [StoredSession.Text]
    var audio: [Audio]

    init(_ session: StoredSession) {
        summary = session.summary
        timings = session.timings
        texts = session.texts
        audio = session.audio.map { Audio(role: $0.role, sha256: $0.sha256, bytes: $0.bytes, format: $0.format) }
    }
}

/// The engine's synthesis with each request that is spoken to its end kept in the history: its text, voice
/// and the audio (WAV at the voice's rate). A request cut off (an error, a client that left) is not kept.
struct RecordingSynthesis: SynthesisService {
    let engine: Engine
    let history: ServerHistory

    func installedVoices() async -> [VoiceDescription] { await engine.installedVoices() }
    func defaultVoiceID() async -> String? { await engine.defaultVoiceID() }
    func voice(_ id: String?) async throws -> VoiceDescription { try await engine.voice(id) }
    func acceptsInstructions(voice id: String) async -> Bool { await engine.acceptsInstructions(voice: id) }
    func languages(ofModel id: String) async -> [String] { await engine.languages(ofModel: id) }
    func synthesize(_ request: SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error> { relay(request).stream }

    /// A request whose voice is not resolved yet: resolved here, once, then `relay(_:voice:observer:)`'s stream.
    func relay(_ request: SynthesisRequest) -> SynthesisRelay {
        SynthesisRelay { [self] in
            let inner = relay(request, voice: try await engine.voice(request.voice), observer: nil)
            return (inner.stream, { await inner.close() })
        }
    }

    /// The engine's relay, with the history watching its chunks (no relay of its own in between).
    func relay(_ request: SynthesisRequest, voice: VoiceDescription, observer: SynthesisRelay.Observer?) -> SynthesisRelay {
        let history = history
        let heard = SpokenAudio()
        return engine.relay(request, voice: voice) { chunk in
            await observer?(chunk)
            guard let chunk else {
                if let session = await heard.session(text: request.text, voice: voice.id) { history.keep(session) }
                return
            }
            await heard.add(chunk)
        }
    }
}

/// The audio of one synthesis, gathered as it streams.
private actor SpokenAudio {
    var samples: [Float] = []
    var sampleRate = 0
    var voice: String?

    func add(_ chunk: AudioChunk) {
        samples += chunk.samples
        sampleRate = chunk.sampleRate
    }

    func session(text: String, voice: String?) -> NewSession? {
        guard let data = ServerHistory.wav(samples, sampleRate: sampleRate) else { return nil }
        return NewSession(kind: .speech, voice: voice, duration: Double(samples.count) / Double(sampleRate),
                          texts: [.source: text], audio: [NewSession.Audio(role: .output, data: data, format: "wav")])
    }
}

/// The engine's recognition with each request recognised to its end kept in the history: the transcript (or
/// Whisper's English translation), its SRT cues and the audio heard (WAV, 16 kHz).
struct RecordingRecognition: RecognitionService {
    let engine: Engine
    let history: ServerHistory

    func recognitionModels() async -> [RecognitionModelDescription] { await engine.recognitionModels() }

    func detectLanguage(_ audio: AudioBuffer, model: String) async throws -> (language: String, probability: Double)? {
        try await engine.detectLanguage(audio, model: model)
    }

    func transcribe(_ audio: AudioBuffer, model: String, options: TranscriptionOptions)
        -> AsyncThrowingStream<TranscriptSegment, any Error> {
        let base = engine.transcribe(audio, model: model, options: options)
        let history = history
        return AsyncThrowingStream { continuation in
            let task = Task {
                let started = ContinuousClock.now
                var segments: [TranscriptSegment] = []
                do {
                    for try await segment in base {
                        segments.append(segment)
                        continuation.yield(segment)
                    }
                } catch {
                    return continuation.finish(throwing: error)
                }
                continuation.finish()
                // A client that left cancels the task: what was heard up to then is not a session.
                guard !Task.isCancelled else { return }
                history.keep(Self.session(segments, audio: audio, model: model, translated: options.task == .translate,
                                          seconds: (ContinuousClock.now - started).seconds))
            }
            // Only a consumer that stops early cancels: the end of the stream also calls this.
            continuation.onTermination = { termination in
                if case .cancelled = termination { task.cancel() }
            }
        }
    }

    /// `warble transcribe`'s session of the segments, with the audio heard as WAV; Whisper's translate task
    /// (/v1/audio/translations) keeps its text as the English translation.
    static func session(_ segments: [TranscriptSegment], audio: AudioBuffer, model: String, translated: Bool,
                        seconds: Double) -> NewSession {
        var session = HistoryRecorder.transcription(file: nil, segments: segments, duration: audio.duration, model: model, seconds: seconds)
        if translated {
            session.kind = .translation
            session.targetLanguage = "en"
            session.texts[.translation] = session.texts.removeValue(forKey: .transcript)
        }
        if let input = ServerHistory.wav(audio.channels.first ?? [], sampleRate: audio.sampleRate) {
            session.audio.append(NewSession.Audio(role: .input, data: input, format: "wav"))
        }
        return session
    }
}
