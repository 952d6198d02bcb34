import Foundation
import WarbleAudio
import WarbleSpeech

/// Finds a Kokoro voice that sounds like a clip. Kokoro's style tables were made by an encoder that
/// was never published, so the table is searched for: separable CMA-ES in the principal directions
/// of the stock voices (`StyleSpace`), starting at the stock voice most like the clip. A candidate
/// is scored by the speaker similarity of its speech on a few short texts to the clip, plus how alike
/// its speech on those texts is to itself (without that term a search fits the scorer, not the
/// voice); each generation speaks other texts. At the end the best candidates and the start are
/// scored again on longer texts the search did not use, and the best of those is the result, so the
/// result is never worse than the stock voice it started from on those texts.
public struct KokoroVoiceSearch: Sendable {
    public struct Options: Sendable {
        /// Wall-clock time for the search (the final scoring comes on top, a few seconds).
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
        public var seconds: Double
        public var budget: Double
        public var candidates: Int
        public var generation: Int
        /// The best score so far (on the texts of its generation) and the start voice's.
        public var best: Double
        public var start: Double
    }

    public struct Result: Sendable {
        public var table: StoredTensor
        /// The stock voice the search started from, and its similarity to the clip on the final texts.
        public var startVoice: String
        public var startSimilarity: Double
        /// The result's similarity to the clip on the final texts.
        public var similarity: Double
        public var candidates: Int
        public var seconds: Double
        public var dimensions: Int
        /// Whether it went on from a saved state.
        public var resumed: Bool
        public var candidatesPerMinute: Double { seconds > 0 ? Double(candidates) / seconds * 60 : 0 }
    }

    /// What is saved after each generation.
    private struct State: Codable {
        var key: String
        var strategy: SeparableCMAES
        var candidates: Int
        var seconds: Double
        var startVoice: String
        var startScore: Double
        var best: Double
        /// Each generation's best point.
        var leaders: [[Double]]
    }

    public let synthesizer: any StyleTableSynthesizer
    /// Speaker embedding of some audio (unit length).
    public let embed: @Sendable (AudioBuffer) throws -> [Float]

    public init(synthesizer: any StyleTableSynthesizer, embed: @escaping @Sendable (AudioBuffer) throws -> [Float]) {
        self.synthesizer = synthesizer
        self.embed = embed
    }

    /// Searches for a voice like `target` (the clip's speaker embedding); `key` names the clip and
    /// settings in the state file, so a state is resumed only by the same search.
    public func run(target: [Float], key: String, options: Options, cancel: CancellationToken,
                    progress: @Sendable (Progress) -> Void) async throws -> Result {
        let space = try Self.space(synthesizer, options: options)
        let training = try SearchTexts.training.map(synthesizer.symbols(for:))
        let validation = try SearchTexts.validation.map(synthesizer.symbols(for:))
        let clock = ContinuousClock()
        let began = clock.now

        var state: State
        let resumed: Bool
        if let saved = loadState(options.stateFile, key: key) {
            state = saved
            resumed = true
        } else {
            // The start: the stock voice most like the clip on the first texts.
            let first = Array(training.prefix(options.textsPerCandidate))
            let scores = try await scoreAll(space.stock.map(\.point), texts: first, space: space, target: target,
                                            options: options, cancel: cancel)
            let best = scores.indices.max { scores[$0] < scores[$1] }!
            state = State(key: key, strategy: SeparableCMAES(mean: space.stock[best].point, sigma: 0.5, seed: options.seed),
                          candidates: scores.count, seconds: 0, startVoice: space.stock[best].id, startScore: scores[best],
                          best: scores[best], leaders: [])
            resumed = false
        }
        let secondsBefore = state.seconds
        func elapsed() -> Double { secondsBefore + (clock.now - began).seconds }
        progress(Progress(seconds: elapsed(), budget: options.budget, candidates: state.candidates,
                          generation: state.strategy.generation, best: state.best, start: state.startScore))

        while elapsed() < options.budget, state.candidates < options.maximumCandidates ?? .max {
            try cancel.check()
            let generation = state.strategy.generation
            let texts = (0..<options.textsPerCandidate).map {
                training[(generation * options.textsPerCandidate + $0) % training.count]
            }
            let points = state.strategy.ask()
            let scores = try await scoreAll(points, texts: texts, space: space, target: target, options: options, cancel: cancel)
            state.strategy.tell(points, scores: scores)
            let leader = scores.indices.max { scores[$0] < scores[$1] }!
            state.leaders.append(points[leader])
            state.best = max(state.best, scores[leader])
            state.candidates += points.count
            state.seconds = elapsed()
            saveState(state, to: options.stateFile)
            progress(Progress(seconds: state.seconds, budget: options.budget, candidates: state.candidates,
                              generation: state.strategy.generation, best: state.best, start: state.startScore))
        }

        // The choice: the start, the distribution's mean and the last generations' leaders, scored on
        // the validation texts by similarity alone.
        let start = space.stock.first { $0.id == state.startVoice }!.point
        let finalists = [start, state.strategy.mean] + state.leaders.suffix(4)
        let similarities = try await scoreAll(finalists, texts: validation, space: space, target: target,
                                              options: Options(similarityWeight: 1, concurrency: options.concurrency), cancel: cancel)
        let chosen = similarities.indices.max { similarities[$0] < similarities[$1] }!
        return Result(table: space.table(at: finalists[chosen]), startVoice: state.startVoice,
                      startSimilarity: similarities[0], similarity: similarities[chosen],
                      candidates: state.candidates + finalists.count, seconds: elapsed(), dimensions: space.dimension,
                      resumed: resumed)
    }

    /// The space `options` ask for.
    static func space(_ synthesizer: any StyleTableSynthesizer, options: Options) throws -> StyleSpace {
        try StyleSpace(tables: try synthesizer.stockStyleTables(), maximumDimensions: options.maximumDimensions,
                       extraDirections: options.extraDirections, seed: options.seed)
    }

    /// The score of each point, `concurrency` at a time.
    private func scoreAll(_ points: [[Double]], texts: [String], space: StyleSpace, target: [Float], options: Options,
                          cancel: CancellationToken) async throws -> [Double] {
        try await withThrowingTaskGroup(of: (Int, Double).self) { group in
            var scores = [Double](repeating: 0, count: points.count)
            var next = 0
            func add() {
                let index = next
                let table = space.table(at: points[index])
                group.addTask {
                    (index, try score(table: table, texts: texts, target: target, similarityWeight: options.similarityWeight, cancel: cancel))
                }
                next += 1
            }
            while next < min(points.count, max(1, options.concurrency)) { add() }
            while let (index, score) = try await group.next() {
                scores[index] = score
                if next < points.count { add() }
            }
            return scores
        }
    }

    /// Similarity to the clip (mean over texts), blended with the mean similarity between the texts.
    func score(table: StoredTensor, texts: [String], target: [Float], similarityWeight: Double,
               cancel: CancellationToken) throws -> Double {
        let embeddings = try texts.map { text in
            let samples = try synthesizer.synthesize(symbols: text, table: table, cancel: cancel)
            return try embed(AudioBuffer(mono: samples, sampleRate: synthesizer.sampleRate))
        }
        let similarity = embeddings.reduce(0) { $0 + Self.cosine($1, target) } / Double(embeddings.count)
        guard similarityWeight < 1, embeddings.count > 1 else { return similarity }
        var consistency = 0.0
        var pairs = 0
        for i in embeddings.indices {
            for j in embeddings.indices where j > i {
                consistency += Self.cosine(embeddings[i], embeddings[j])
                pairs += 1
            }
        }
        return similarityWeight * similarity + (1 - similarityWeight) * consistency / Double(pairs)
    }

    static func cosine(_ a: [Float], _ b: [Float]) -> Double {
        var (dot, na, nb) = (0.0, 0.0, 0.0)
        for (x, y) in zip(a, b) {
            dot += Double(x) * Double(y)
            na += Double(x) * Double(x)
            nb += Double(y) * Double(y)
        }
        return na > 0 && nb > 0 ? dot / (na * nb).squareRoot() : 0
    }

    private func loadState(_ url: URL?, key: String) -> State? {
        guard let url, let data = FileManager.default.contents(atPath: url.path),
              let state = try? JSONDecoder().decode(State.self, from: data), state.key == key else { return nil }
        return state
    }

    private func saveState(_ state: State, to url: URL?) {
        guard let url, let data = try? JSONEncoder().encode(state) else { return }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
