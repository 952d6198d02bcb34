import WarbleSpeech

/// How `warble serve` listens and what it allows. The defaults are safe for a desktop: loopback only,
/// small bodies, a time limit, and a short queue in front of a few concurrent syntheses.
public struct ServerConfiguration: Sendable {
    /// Interface to bind; anything other than loopback requires `apiKey`.
    public var host: String
    /// TCP port; 0 picks a free one (reported by `onServerRunning`).
    public var port: Int
    /// When set, every route but `/health` needs `Authorization: Bearer <apiKey>`.
    public var apiKey: String?
    /// Largest request body accepted (larger: 413).
    public var maxBodyBytes: Int
    /// Longest `input` accepted, in characters (OpenAI's limit is 4096).
    public var maxInputCharacters: Int
    /// Wall-clock limit for one request: queueing plus synthesis.
    public var requestTimeLimit: Duration
    /// Syntheses running at the same time.
    public var maxConcurrentSyntheses: Int
    /// Requests waiting for a synthesis slot; one more is refused with 429.
    public var maxQueuedRequests: Int
    /// Largest audio upload (multipart body) the transcription routes accept (larger: 413).
    /// OpenAI's limit is 25 MB.
    public var maxUploadBytes: Int
    /// Longest audio one speech request may produce, in seconds: breaks beyond it are refused with 400;
    /// audio that grows past it is cut off.
    public var maxAudioSeconds: Double
    /// Longest upload the transcription routes decode, in seconds of audio (longer: 400).
    public var maxUploadSeconds: Double
    /// The recognition model `whisper-1` means on `/v1/audio/transcriptions`.
    public var defaultTranscriptionModel: String
    /// The recognition model `whisper-1` means on `/v1/audio/translations` (it must be multilingual).
    public var defaultTranslationModel: String
    /// OpenAI's voice names (alloy, echo, …) and the installed voices they stand for.
    public var voiceAliases: VoiceAliases
    /// Longest wait for a request's headers, from the connection's opening (its first request) or the
    /// request's first byte (later requests); then 408 (or, before any byte, a silent close).
    public var headerTimeout: Duration
    /// Longest pause while a request body is read (nothing arriving); then 408 and the connection closes.
    public var bodyTimeout: Duration
    /// Longest a kept-alive connection may wait for its next request; then it is closed.
    public var idleTimeout: Duration
    /// Connections open at once; one more is answered 503 (`Connection: close`, an OpenAI-shaped error)
    /// and closed without its request being read.
    public var maxConnections: Int
    /// How long a drain (SIGTERM) lets requests in flight finish before they are cut off.
    public var drainTime: Duration = .seconds(30)
    /// Serve `GET /metrics` without the API key (for a scraper on a private network).
    public var metricsPublic = false
    /// Live caption sessions (`POST /v1/audio/live`) open at once; one more is 429.
    public var maxLiveSessions = 2

    public init(host: String = "127.0.0.1", port: Int = 8880, apiKey: String? = nil, maxBodyBytes: Int = 64 << 10,
                maxInputCharacters: Int = 4096, requestTimeLimit: Duration = .seconds(120),
                maxConcurrentSyntheses: Int = 2, maxQueuedRequests: Int = 8, maxUploadBytes: Int = 25 << 20,
                maxAudioSeconds: Double = 600, maxUploadSeconds: Double = 1800,
                defaultTranscriptionModel: String = ModelDefaults.current?.englishRecognition ?? "",
                defaultTranslationModel: String = ModelDefaults.current?.recognition ?? "",
                voiceAliases: VoiceAliases = .openAI, headerTimeout: Duration = .seconds(10),
                bodyTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(60), maxConnections: Int = 512) {
        self.host = host
        self.port = port
        self.apiKey = apiKey
        self.maxBodyBytes = maxBodyBytes
        self.maxInputCharacters = maxInputCharacters
        self.requestTimeLimit = requestTimeLimit
        self.maxConcurrentSyntheses = maxConcurrentSyntheses
        self.maxQueuedRequests = maxQueuedRequests
        self.maxUploadBytes = maxUploadBytes
        self.maxAudioSeconds = maxAudioSeconds
        self.maxUploadSeconds = maxUploadSeconds
        self.defaultTranscriptionModel = defaultTranscriptionModel
        self.defaultTranslationModel = defaultTranslationModel
        self.voiceAliases = voiceAliases
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
    }

    /// Whether `host` only accepts connections from this machine.
    public var isLoopback: Bool {
        let name = host.lowercased()
        return name == "localhost" || name == "::1" || name == "[::1]" || name.hasPrefix("127.")
    }

    /// Throws when the settings are unsafe or meaningless.
    public func validate() throws(ServerConfigurationError) {
        if !isLoopback, (apiKey ?? "").isEmpty {
            throw ServerConfigurationError("binding \(host) exposes the server beyond this machine: "
                + "give an API key (--api-key or WARBLE_API_KEY), or bind 127.0.0.1")
        }
        guard (0...65535).contains(port) else { throw ServerConfigurationError("port \(port) is not in 0...65535") }
        guard maxBodyBytes >= 1024 else { throw ServerConfigurationError("body limit \(maxBodyBytes) is below 1024 bytes") }
        guard maxUploadBytes >= 1024 else { throw ServerConfigurationError("upload limit \(maxUploadBytes) is below 1024 bytes") }
        guard maxInputCharacters >= 1 else { throw ServerConfigurationError("input limit must be at least 1 character") }
        guard maxConcurrentSyntheses >= 1 else {
            throw ServerConfigurationError("concurrency \(maxConcurrentSyntheses) must be at least 1")
        }
        guard maxQueuedRequests >= 0 else { throw ServerConfigurationError("queue length must not be negative") }
        guard requestTimeLimit > .zero else { throw ServerConfigurationError("the time limit must be positive") }
        guard maxAudioSeconds.isFinite, maxAudioSeconds >= 1 else {
            throw ServerConfigurationError("the longest speech audio (--max-audio-seconds) must be a finite number of seconds, at least 1, got \(maxAudioSeconds)")
        }
        guard maxUploadSeconds.isFinite, maxUploadSeconds >= 1 else {
            throw ServerConfigurationError("the longest upload (--max-upload-seconds) must be a finite number of seconds, at least 1, got \(maxUploadSeconds)")
        }
        for (flag, timeout) in [("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout), ("--idle-timeout", idleTimeout)]
        where timeout <= .zero {
            throw ServerConfigurationError("\(flag) must be a positive number of seconds, got \(timeout)")
        }
        guard maxConnections >= 1 else {
            throw ServerConfigurationError("the connection limit (--max-connections) must be at least 1, got \(maxConnections)")
        }
        guard maxLiveSessions >= 0 else {
            throw ServerConfigurationError("the live session limit (--max-live-sessions) must not be negative, got \(maxLiveSessions)")
        }
        guard drainTime >= .zero else {
            throw ServerConfigurationError("the drain time (--drain-seconds) must not be negative, got \(drainTime)")
        }
    }
}

/// A server setting that cannot be used, and why.
public struct ServerConfigurationError: Error, Sendable, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
