import Foundation
import WarbleAudio
import WarbleSpeech

/// Finds a Kokoro voice that sounds like a clip. Kokoro's style tables were made by an encoder that
/// was never published, so the table is searched for: separable CMA-ES in the principal directions
/// of the stock voices (`StyleSpace`), starting at the stock voice most like the clip. A candidate
/// is scored by the speaker similarity of its speech on a few short texts to the clip, plus how alike
/// its speech on those texts is to itself (without that term a search fits the scorer, not the
/// voice); each generation speaks other texts. Points stay within `bound` standard deviations of the
/// stock voices on every direction (farther out Kokoro mumbles). At the end the best candidates and the
/// stock voices are scored again on longer texts the search did not use; those whose speech Whisper
/// understands clearly less well than the best stock voice's are dropped (a clone must stay
/// intelligible), and the most similar of the rest is the result: never worse than the best stock
/// voice on those texts.
struct KokoroVoiceSearch: Sendable {
    typealias Options = VoiceSearch.Options
    typealias Progress = VoiceSearch.Progress
    typealias Result = VoiceSearch.Result

    /// What is saved after each generation.
    private struct State: Codable {
        var key: String
        var strategy: SeparableCMAES
        var candidates: Int
        var seconds: Double
        var startVoice: String
        var startScore: Double
        /// The stock voices, most like the clip first (on the first texts).
        var stockRanking: [String]
        var best: Double
        /// Each generation's best point.
        var leaders: [[Double]]
    }

    let synthesizer: any StyleTableSynthesizer
    /// Speaker embedding of some audio (unit length).
    let embed: @Sendable (AudioBuffer) throws -> [Float]
    /// What speech recognition hears in some audio (nil: the choice is by similarity alone).
    let transcribe: (@Sendable (AudioBuffer) async throws -> String)?

    init(synthesizer: any StyleTableSynthesizer, embed: @escaping @Sendable (AudioBuffer) throws -> [Float],
                transcribe: (@Sendable (AudioBuffer) async throws -> String)? = nil) {
        self.synthesizer = synthesizer
        self.embed = embed
        self.transcribe = transcribe
    }

    /// Searches for a voice like `target` (the clip's speaker embedding); `key` names the clip and
    /// settings in the state file, so a state is resumed only by the same search.
    func run(target: [Float], key: String, options: Options, cancel: CancellationToken,
                    progress: @Sendable (Progress) -> Void) async throws -> Result {
        let stockTables = try synthesizer.stockStyleTables()
        let space = try Self.space(synthesizer, options: options)
        let training = try SearchTexts.training.map(synthesizer.symbols(for:))
        let validation = try SearchTexts.validation.map(synthesizer.symbols(for:))
        let clock = ContinuousClock()
        let began = clock.now

        var state: State
        let resumed: Bool
        var pace = Pace(concurrency: options.concurrency)
        if let saved = loadState(options.stateFile, key: key) {
            state = saved
            resumed = true
        } else {
            // The start: the stock voice most like the clip on the first texts.
            let first = Array(training.prefix(options.textsPerCandidate))
            let scoring = clock.now
            let scores = try await scoreAll(stockTables.map(\.table), texts: first, target: target,
                                            options: options, cancel: cancel)
            pace.record((clock.now - scoring).seconds, syntheses: stockTables.count * first.count)
            let best = scores.indices.max { scores[$0] < scores[$1] }!
            state = State(key: key, strategy: SeparableCMAES(mean: space.stock[best].point, sigma: 0.5, seed: options.seed),
                          candidates: scores.count, seconds: 0, startVoice: space.stock[best].id, startScore: scores[best],
                          stockRanking: scores.indices.sorted { scores[$0] > scores[$1] }.map { space.stock[$0].id },
                          best: scores[best], leaders: [])
            resumed = false
            saveState(state, to: options.stateFile)  // an interruption from here on goes on from the start voice
        }
        // Candidates are the start voice's own table moved in the space (its rows keep their shape).
        let startVoice = state.startVoice
        let base = stockTables.first { $0.id == startVoice }.map { voice in
            (table: voice.table, point: space.stock.first { $0.id == voice.id }!.point)
        }
        let secondsBefore = state.seconds
        func elapsed() -> Double { secondsBefore + (clock.now - began).seconds }
        progress(Progress(seconds: elapsed(), budget: options.budget, candidates: state.candidates,
                          generation: state.strategy.generation, best: state.best, start: state.startScore))

        // The choice judges the stock voices (at most eight), the mean and four leaders on the choosing texts.
        let finalistCount = min(8, state.stockRanking.count) + 1 + 4
        // Before a generation: its own time and the choice's must both fit in what is left.
        func reserve() -> Double {
            pace.choosingSeconds(finalists: finalistCount, texts: validation.count)
                + pace.generationSeconds(candidates: state.strategy.populationSize, texts: options.textsPerCandidate)
        }
        while elapsed() + reserve() < options.budget, state.candidates < options.maximumCandidates ?? .max {
            try cancel.check()
            let started = clock.now
            let generation = state.strategy.generation
            let texts = (0..<options.textsPerCandidate).map {
                training[(generation * options.textsPerCandidate + $0) % training.count]
            }
            let points = state.strategy.ask().map { $0.map { min(options.bound, max(-options.bound, $0)) } }
            let scores = try await scoreAll(points.map { space.table(at: $0, base: base) }, texts: texts, target: target,
                                            options: options, cancel: cancel)
            state.strategy.tell(points, scores: scores)
            let leader = scores.indices.max { scores[$0] < scores[$1] }!
            state.leaders.append(points[leader])
            state.best = max(state.best, scores[leader])
            state.candidates += points.count
            pace.record((clock.now - started).seconds, syntheses: points.count * texts.count)
            state.seconds = elapsed()
            saveState(state, to: options.stateFile)
            progress(Progress(seconds: state.seconds, budget: options.budget, candidates: state.candidates,
                              generation: state.strategy.generation, best: state.best, start: state.startScore))
        }

        // The choice: the stock voices (at most eight, most like the clip first), the distribution's
        // mean and the last generations' leaders, scored on the validation texts; among those Whisper
        // understands about as well as the best stock voice there, the most similar. They are judged most
        // promising first (the start voice, the mean, the newest leaders, the other stock voices), and the
        // choice ends with the budget once the start voice and one candidate were started.
        let stock = Array(state.stockRanking.prefix(8).compactMap { id in space.stock.first { $0.id == id } })
        // A search that made no step found nothing: its mean is the start voice's point, whose table (moved
        // by nothing) scored 0.010 above the stock table itself on an AVX2 machine, a difference of rounding.
        let mean = state.strategy.generation > 0 ? [state.strategy.mean.map { min(options.bound, max(-options.bound, $0)) }] : []
        let searched = mean + state.leaders.suffix(4).reversed()
        let order: [Finalist] = stock.prefix(1).indices.map { Finalist(stock: $0, point: stock[$0].point) }
            + searched.map { Finalist(stock: nil, point: $0) }
            + stock.indices.dropFirst().map { Finalist(stock: $0, point: stock[$0].point) }
        func table(_ finalist: Finalist) -> StoredTensor {
            // A stock voice is judged (and chosen) as its own table.
            if let index = finalist.stock { return stockTables.first { $0.id == stock[index].id }!.table }
            return space.table(at: finalist.point, base: base)
        }
        func report(_ judged: Int) {
            progress(Progress(phase: .choosing(judged: judged, of: order.count), seconds: elapsed(), budget: options.budget,
                              candidates: state.candidates, generation: state.strategy.generation, best: state.best,
                              start: state.startScore))
        }
        // `concurrency` finalists are judged at a time, started in that order; once two were started, one more
        // starts only if it would end within the budget, at the pace of those judged so far (a finalist started
        // just before the budget ran out kept a command 10 s past it). They are kept in that order, whichever
        // ends first.
        var verdicts: [(index: Int, similarity: Double, wer: Double?)] = []
        try await withThrowingTaskGroup(of: (Int, Double, Double?, Double).self) { group in
            var next = 0
            var judgingSeconds: [Double] = []
            func start() throws {
                try cancel.check()
                let index = next
                let table = table(order[index])
                group.addTask {
                    let started = clock.now
                    let (similarity, wer) = try await judge(table, texts: validation, references: SearchTexts.validation,
                                                            target: target, cancel: cancel)
                    return (index, similarity, wer, (clock.now - started).seconds)
                }
                next += 1
            }
            func mayStart() -> Bool {
                guard next < order.count else { return false }
                if next < 2 { return true }
                let pace = judgingSeconds.isEmpty ? 0 : judgingSeconds.reduce(0, +) / Double(judgingSeconds.count)
                return elapsed() + pace < options.budget
            }
            report(0)
            while next < max(1, options.concurrency), mayStart() { try start() }
            while let (index, similarity, wer, seconds) = try await group.next() {
                judgingSeconds.append(seconds)
                verdicts.append((index, similarity, wer))
                report(verdicts.count)
                if mayStart() { try start() }
            }
        }
        let judged = verdicts.sorted { $0.index < $1.index }.map { (finalist: order[$0.index], similarity: $0.similarity, wer: $0.wer) }
        let best = judged.indices.filter { judged[$0].finalist.stock != nil }.max { judged[$0].similarity < judged[$1].similarity } ?? 0
        let baseline = judged[best].wer
        let eligible = judged.indices.filter { index in
            guard let wer = judged[index].wer, let baseline else { return true }
            return wer <= baseline + options.werSlack
        }
        let chosen = eligible.max { judged[$0].similarity < judged[$1].similarity } ?? best
        return Result(table: table(judged[chosen].finalist), startVoice: stock[judged[best].finalist.stock ?? 0].id,
                      startSimilarity: judged[best].similarity, similarity: judged[chosen].similarity,
                      stockVoice: judged[chosen].finalist.stock.map { stock[$0].id },
                      startWordErrorRate: baseline, wordErrorRate: judged[chosen].wer,
                      candidates: state.candidates + judged.count, seconds: elapsed(), dimensions: space.dimension,
                      resumed: resumed)
    }

    /// A table the choice judges: a stock voice's (by its index among the ranked stock voices) or a point found.
    private struct Finalist {
        var stock: Int?
        var point: [Double]
    }

    /// Similarity to the clip over `texts` (symbols of `references`), and the word error rate of their speech.
    private func judge(_ table: StoredTensor, texts: [String], references: [String], target: [Float],
                       cancel: CancellationToken) async throws
        -> (similarity: Double, wer: Double?) {
        var similarity = 0.0
        var pairs: [(reference: String, transcript: String)] = []
        for (index, symbols) in texts.enumerated() {
            let audio = AudioBuffer(mono: try synthesizer.synthesize(symbols: symbols, table: table, cancel: cancel),
                                    sampleRate: synthesizer.sampleRate)
            similarity += Self.cosine(try embed(audio), target)
            if let transcribe { pairs.append((references[index], try await transcribe(audio))) }
        }
        return (similarity / Double(max(1, texts.count)), transcribe == nil ? nil : WordErrorRate.rate(pairs))
    }

    /// The space `options` ask for.
    static func space(_ synthesizer: any StyleTableSynthesizer, options: Options) throws -> StyleSpace {
        try StyleSpace(tables: try synthesizer.stockStyleTables(), maximumDimensions: options.maximumDimensions,
                       extraDirections: options.extraDirections, seed: options.seed)
    }

    /// The score of each table, `concurrency` at a time.
    private func scoreAll(_ tables: [StoredTensor], texts: [String], target: [Float], options: Options,
                          cancel: CancellationToken) async throws -> [Double] {
        try await concurrentScores(tables, width: options.concurrency) { table in
            try score(table: table, texts: texts, target: target, similarityWeight: options.similarityWeight, cancel: cancel)
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

    static func cosine(_ a: [Float], _ b: [Float]) -> Double { VoiceSearch.cosine(a, b) }

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

/// How fast candidates are spoken on this machine now, to leave the choice its time within the budget.
struct Pace {
    let concurrency: Int
    /// Seconds per synthesis (with its embedding) on one lane, as measured last; nil before any measure.
    private(set) var secondsPerSynthesis: Double?

    init(concurrency: Int) {
        self.concurrency = max(1, concurrency)
    }

    mutating func record(_ seconds: Double, syntheses: Int) {
        guard syntheses > 0, seconds > 0 else { return }
        secondsPerSynthesis = seconds * Double(concurrency) / Double(syntheses)
    }

    /// A generation's time: `candidates` each speaking `texts` texts, `concurrency` at a time.
    func generationSeconds(candidates: Int, texts: Int) -> Double {
        (secondsPerSynthesis ?? 0) * Double(candidates * texts) / Double(concurrency)
    }

    /// The choice's time: each finalist speaks `texts` texts one at a time, each heard by speech recognition
    /// (counted as much again as the speech), `concurrency` finalists at a time.
    func choosingSeconds(finalists: Int, texts: Int) -> Double {
        (secondsPerSynthesis ?? 0) * Double(finalists * texts) * 2 / Double(concurrency)
    }
}
