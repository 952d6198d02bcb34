import WarbleText
/// What a model family provides to the shared streaming machinery: render one utterance to audio,
/// whole or (where the model allows) piece by piece.
public protocol UtteranceRenderer: Sendable {
    /// Model id (from its manifest).
    var modelID: String { get }
    var sampleRate: Int { get }
    var voices: [VoiceDescription] { get }
    /// The voice used when a request names none.
    var defaultVoice: String { get }
    /// The language of the text front end (normaliser, phonemizer) for this model.
    var language: String { get }
    /// How many characters of text the model takes in one run (the renderer splits further if its
    /// model still overflows).
    var chunkCharacters: Int { get }
    /// A shorter limit for the first utterance of a request, so that the first audio comes sooner
    /// from models that cannot stream inside an utterance (nil: no special first chunk).
    var firstChunkCharacters: Int? { get }
    /// Renders `utterance` with `voice` at `rate` (1 = normal). `cancel` lets a caller stop the run
    /// (the family ties it to its backend's stop switch).
    func render(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> RenderedUtterance
    /// Starts rendering `utterance` piece by piece. The default renders it whole as one piece.
    func begin(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> any UtteranceRendering
    /// Throws when the model cannot honour `controls` (the default: any control set is refused).
    func validate(_ controls: VoiceControls) throws
    /// The fastest rate the model speaks accurately; faster rates are rendered at it and time-stretched
    /// (WSOLA) the rest of the way. The default: every rate the engine allows.
    var fastestRate: Double { get }
    /// Whether the model speaks text in `language` (BCP 47) with its voices, through its own front end.
    /// The default: the model's language only.
    func speaks(_ language: String) -> Bool
}

extension UtteranceRenderer {
    public var firstChunkCharacters: Int? { nil }
    public var fastestRate: Double { SpeechLimits.rate.upperBound }
    public func speaks(_ language: String) -> Bool { LanguageCode.same(language, self.language) }

    public func validate(_ controls: VoiceControls) throws {
        guard controls.isEmpty else {
            throw ModelError(.badInput, controls.isPiperOnly
                ? "\(modelID) takes no speaker, noise or length scale settings (Piper voices do)"
                : "\(modelID) takes no seed, instruction or cross-lingual setting (CosyVoice 3 voices do)")
        }
    }

    public func begin(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws
        -> any UtteranceRendering
    {
        WholeRendering(try render(utterance, voice: voice, rate: rate, cancel: cancel))
    }
}

extension UtteranceRendering {
    public var lengthIsExact: Bool { true }
}

/// An utterance being rendered: its audio comes in pieces, its length is known from the start or
/// (models that write speech tokens until they stop, such as CosyVoice 3) estimated until then.
/// Used by one task at a time (each call runs after the previous one returned).
public protocol UtteranceRendering: AnyObject, Sendable {
    /// Samples the whole utterance will have (an estimate while `lengthIsExact` is false).
    var totalSamples: Int { get }
    /// Whether `totalSamples` is exact now (a WAV header may say it). The default: always.
    var lengthIsExact: Bool { get }
    /// Relative lengths of the spoken words, for word timing (see `RenderedUtterance`).
    var wordWeights: [Int] { get }
    /// Whether every piece has been handed out.
    var isFinished: Bool { get }
    /// The next piece of audio, in order.
    func nextPiece(cancel: CancellationToken) throws -> [Float]
}

/// The voice an utterance is rendered with: a stock voice of the model by id, or a voice from the
/// library with the conditioning its profile holds.
public struct RenderVoice: Sendable, Equatable {
    public var id: String
    /// The cloned voice's conditioning (nil: the model's own voice `id`).
    public var conditioning: VoiceConditioning?
    /// Tells two versions of a library voice with the same id apart (for caches).
    public var revision: Double?
    /// Speaker and sampling scales (Piper); empty for the model's own settings.
    public var controls: VoiceControls

    public init(id: String, conditioning: VoiceConditioning? = nil, revision: Double? = nil, controls: VoiceControls = .init()) {
        self.id = id
        self.conditioning = conditioning
        self.revision = revision
        self.controls = controls
    }

    /// A key that differs whenever the audio could: the id, the revision of a library voice, the controls.
    public var cacheKey: String { (revision.map { "\(id)@\($0)" } ?? id) + controls.cacheKey }
}

/// The audio of one utterance, with what is needed to place its words in time.
public struct RenderedUtterance: Sendable {
    public var samples: [Float]
    /// Relative lengths of the spoken words (phonemes per word), in order; used to estimate where
    /// each word starts inside the audio.
    public var wordWeights: [Int]

    public init(samples: [Float], wordWeights: [Int]) {
        self.samples = samples
        self.wordWeights = wordWeights
    }
}

/// A rendering that is already complete: one piece.
public final class WholeRendering: UtteranceRendering, @unchecked Sendable {
    // Mutated only by nextPiece, which callers never run concurrently.
    private let rendered: RenderedUtterance
    public private(set) var isFinished = false

    public init(_ rendered: RenderedUtterance) {
        self.rendered = rendered
    }

    public var totalSamples: Int { rendered.samples.count }
    public var wordWeights: [Int] { rendered.wordWeights }

    public func nextPiece(cancel: CancellationToken) throws -> [Float] {
        isFinished = true
        return rendered.samples
    }
}
