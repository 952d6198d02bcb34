import Foundation

/// A search for a voice that sounds like a clip, in a family's own voice space (Kokoro's style tables, which
/// no published encoder makes): its settings, its progress and its result. The family runs it
/// (`VoiceSearching`, Sources/WarbleModels/Families/FamilyCloning.swift); the engine, the CLI and the server
/// see only these values.
public enum VoiceSearch {
    public struct Options: Sendable {
        /// Wall-clock time for the search and the choice after it: the search stops early enough for the choice
        /// (its time estimated from the candidates' pace), and the choice judges what it can in what is left.
        public var budget: Double
        /// Stop once this many candidates were spoken, whatever the time (nil: the budget alone). The
        /// same clip, seed and count give the same voice (on one machine: ONNX Runtime's int8 kernels
        /// differ by a hair between thread counts); a time budget gives as many candidates as fit in it.
        public var maximumCandidates: Int?
        public var seed: UInt64
        /// Texts spoken per candidate.
        public var textsPerCandidate: Int
        /// Weight of the similarity to the clip; the rest goes to self-consistency.
        public var similarityWeight: Double
        public var maximumDimensions: Int
        /// Random directions added to the stock voices' principal ones (see `StyleSpace`).
        public var extraDirections: Int
        /// Candidates spoken at the same time.
        public var concurrency: Int
        /// How far from the stock voices' centre a point may go, in their standard deviations.
        public var bound: Double = 2.5
        /// How much more of the choosing texts' words Whisper may miss with the result than with the start.
        public var werSlack: Double = 0.05
        /// Where the search keeps its state after each generation (to be resumed), if anywhere.
        public var stateFile: URL?

        public init(budget: Double = 600, maximumCandidates: Int? = nil, seed: UInt64 = 1, textsPerCandidate: Int = 2, similarityWeight: Double = 0.75,
                    maximumDimensions: Int = 24, extraDirections: Int = 0, concurrency: Int = 2, stateFile: URL? = nil) {
            self.budget = budget
            self.maximumCandidates = maximumCandidates
            self.seed = seed
            self.textsPerCandidate = textsPerCandidate
            self.similarityWeight = similarityWeight
            self.maximumDimensions = maximumDimensions
            self.extraDirections = extraDirections
            self.concurrency = concurrency
            self.stateFile = stateFile
        }
    }

    public struct Progress: Sendable {
        /// What the search is doing: walking the space, or choosing among its finalists (speaking the choosing
        /// texts with each and hearing them).
        public enum Phase: Sendable, Equatable {
            case searching
            case choosing(judged: Int, of: Int)
        }

        public var phase: Phase = .searching
        public var seconds: Double
        public var budget: Double
        public var candidates: Int
        public var generation: Int
        /// The best score so far (on the texts of its generation) and the start voice's.
        public var best: Double
        public var start: Double

        public init(phase: Phase = .searching, seconds: Double, budget: Double, candidates: Int, generation: Int, best: Double,
                    start: Double) {
            (self.phase, self.seconds, self.budget, self.candidates, self.generation, self.best, self.start) =
                (phase, seconds, budget, candidates, generation, best, start)
        }
    }

    public struct Result: Sendable {
        public var table: StoredTensor
        /// The stock voice most like the clip on the final texts, and its similarity there.
        public var startVoice: String
        public var startSimilarity: Double
        /// The result's similarity to the clip on the final texts.
        public var similarity: Double
        /// The stock voice chosen, when no candidate of the search beat the stock voices: the result is that
        /// voice's own table.
        public var stockVoice: String?
        /// Word error rates on the final texts through speech recognition (nil when none is installed).
        public var startWordErrorRate: Double?
        public var wordErrorRate: Double?
        public var candidates: Int
        public var seconds: Double
        public var dimensions: Int
        /// Whether it went on from a saved state.
        public var resumed: Bool
        public var candidatesPerMinute: Double { seconds > 0 ? Double(candidates) / seconds * 60 : 0 }
        /// What a library voice keeps of the result.
        public var conditioning: VoiceConditioning { .styleTable(table) }

        public init(table: StoredTensor, startVoice: String, startSimilarity: Double, similarity: Double, stockVoice: String?,
                    startWordErrorRate: Double?, wordErrorRate: Double?, candidates: Int, seconds: Double, dimensions: Int,
                    resumed: Bool) {
            self.table = table
            self.startVoice = startVoice
            self.startSimilarity = startSimilarity
            self.similarity = similarity
            self.stockVoice = stockVoice
            self.startWordErrorRate = startWordErrorRate
            self.wordErrorRate = wordErrorRate
            self.candidates = candidates
            self.seconds = seconds
            self.dimensions = dimensions
            self.resumed = resumed
        }
    }

    /// Cosine similarity of two embeddings (0 when one is all zeros).
    public static func cosine(_ a: [Float], _ b: [Float]) -> Double {
        var (dot, na, nb) = (0.0, 0.0, 0.0)
        for (x, y) in zip(a, b) {
            dot += Double(x) * Double(y)
            na += Double(x) * Double(x)
            nb += Double(y) * Double(y)
        }
        return na > 0 && nb > 0 ? dot / (na * nb).squareRoot() : 0
    }
}
