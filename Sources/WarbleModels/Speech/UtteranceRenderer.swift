import ONNXRuntime

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
    /// Renders `utterance` with `voice` at `rate` (1 = normal). `options` lets a caller stop the run.
    func render(_ utterance: Utterance, voice: String, rate: Double, options: RunOptions) throws -> RenderedUtterance
    /// Starts rendering `utterance` piece by piece. The default renders it whole as one piece.
    func begin(_ utterance: Utterance, voice: String, rate: Double, options: RunOptions) throws -> any UtteranceRendering
}

extension UtteranceRenderer {
    public var firstChunkCharacters: Int? { nil }

    public func begin(_ utterance: Utterance, voice: String, rate: Double, options: RunOptions) throws
        -> any UtteranceRendering
    {
        WholeRendering(try render(utterance, voice: voice, rate: rate, options: options))
    }
}

/// An utterance being rendered: its length is known from the start, its audio comes in pieces.
/// Used by one task at a time (each call runs after the previous one returned).
public protocol UtteranceRendering: AnyObject, Sendable {
    /// Samples the whole utterance will have.
    var totalSamples: Int { get }
    /// Relative lengths of the spoken words, for word timing (see `RenderedUtterance`).
    var wordWeights: [Int] { get }
    /// Whether every piece has been handed out.
    var isFinished: Bool { get }
    /// The next piece of audio, in order.
    func nextPiece(options: RunOptions) throws -> [Float]
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

    public func nextPiece(options: RunOptions) throws -> [Float] {
        isFinished = true
        return rendered.samples
    }
}
