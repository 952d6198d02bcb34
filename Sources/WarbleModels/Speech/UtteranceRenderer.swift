import ONNXRuntime

/// What a model family provides to the shared streaming machinery: render one utterance to audio.
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
    /// Renders `utterance` with `voice` at `rate` (1 = normal). `options` lets a caller stop the run.
    func render(_ utterance: Utterance, voice: String, rate: Double, options: RunOptions) throws -> RenderedUtterance
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
