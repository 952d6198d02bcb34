import Foundation
import WarbleAudio
import WarbleModels
import WarbleSpeech
import WarbleText

extension Engine {
    /// A search's clip length: enough speech for a stable speaker embedding; longer clips are cut.
    static let searchClipSeconds = 3.0...30.0

    /// What clones for a request: a family's voice encoder, or a family's search over its own voices (Kokoro's).
    private enum Cloner {
        case encoder(model: String, family: String, any VoiceEncoder)
        case search(model: String, family: String, any VoiceSearchingFamily, any UtteranceRenderer)

        var model: String {
            switch self {
            case .encoder(let model, _, _), .search(let model, _, _, _): model
            }
        }
    }

    /// Clones a voice from a clip and keeps it in the library; `events` tells what happens.
    /// Cancelling `cancel` stops it (a search keeps its state and resumes on the next call).
    public func addVoice(_ request: VoiceCloneRequest, cancel: CancellationToken = CancellationToken(),
                         events: @escaping @Sendable (VoiceCloneEvent) -> Void = { _ in }) async throws -> VoiceCloneResult {
        // A search's budget counts from here: reading the clip and loading the models are in it.
        let began = ContinuousClock.now
        guard VoiceProfile.isValidID(request.name) else {
            throw ModelError(.badInput, "'\(request.name)' is not a usable voice name: use 1–64 letters, digits, '-', '_', '.' or ':'")
        }
        for (what, text) in [("consent note", request.consent), ("transcript", request.transcript)] {
            if let text, !PrintableText.isPrintable(text, maximumLength: 10_000, allowingLineBreaks: true) {
                throw ModelError(.badInput, "the \(what) is longer than 10000 characters or holds control characters")
            }
        }
        if isStockVoice(request.name) {
            throw ModelError(.badInput, "'\(request.name)' is the name of a stock voice; choose another name")
        }
        if !request.replacing, library.snapshot().profile(request.name) != nil {
            throw ModelError(.badInput, "the voice library already has a voice '\(request.name)'; remove it first or choose another name")
        }
        let cloner = try await cloner(for: request.model)
        let detector = try await voiceActivityDetector()
        let seconds: ClosedRange<Double> = switch cloner {
        case .encoder(_, _, let encoder): encoder.clipSeconds
        case .search: Self.searchClipSeconds
        }
        let clip = try await BlockingWork.run(cancel: cancel) { token in
            try CloneClip(data: request.clip, name: request.clipName, seconds: seconds, detector: detector, cancel: token)
        }
        events(.clip(fileSeconds: clip.fileSeconds, speechSeconds: clip.speech.duration, level: clip.level, shortened: clip.shortened))

        var transcript = request.transcript?.trimmingCharacters(in: .whitespacesAndNewlines)
        if transcript?.isEmpty ?? true, request.transcribe {
            transcript = try await transcribe(clip.speech)
            events(.transcript(transcript ?? ""))
        }
        let embedder = try? await speakerEmbedder()
        var embedding: [Float]?
        if let embedder {
            embedding = try await BlockingWork.run(cancel: cancel) { try embedder.embedding(clip.speech, cancel: $0) }
        }

        let conditioning: VoiceConditioning
        var searchResult: VoiceSearch.Result?
        let family: String
        let language: String
        switch cloner {
        case .encoder(let model, let encoderFamily, let encoder):
            if encoder.needsTranscript, transcript?.isEmpty ?? true {
                throw ModelError(.badInput, "\(model) needs to know what the clip says: give --transcript TEXT, or --transcribe")
            }
            conditioning = try await encoder.encode(clip.speech, transcript: transcript)
            family = encoderFamily
            language = request.language ?? installed[model]?.manifest.languages.first ?? "en"
        case .search(let model, let searchFamily, let searching, let renderer):
            guard let embedder, let embedding else {
                do {
                    _ = try await speakerEmbedder()
                } catch {
                    throw ModelError(.badModel, "finding a \(searching.displayName) voice needs the speaker embedder: \(error)")
                }
                throw ModelError(.badModel, "finding a \(searching.displayName) voice needs the speaker embedder, which did not load")
            }
            guard let search = searching.voiceSearch(for: renderer, embed: { try embedder.embedding($0) },
                                                     transcribe: intelligibilityJudge()) else {
                throw ModelError(.badModel, "\(model) offers no voice search")
            }
            var options = request.search
            options.budget = max(1, options.budget - (ContinuousClock.now - began).seconds)
            let key = "\(clip.sha256) \(model) seed \(options.seed) dims \(options.maximumDimensions)+\(options.extraDirections)"
            options.stateFile = options.stateFile ?? library.directory.appendingPathComponent(".search", isDirectory: true)
                .appendingPathComponent("\(request.name)-\(clip.sha256.prefix(16)).json")
            let dimensions = try search.dimensions(options)
            let resumable = options.stateFile.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
            events(.searchStarted(model: model, dimensions: dimensions, resumed: resumable))
            begin(model: model, status: .synthesizing(model: model))
            defer { finish(model: model) }
            let result = try await search.run(target: embedding, key: key, options: options, cancel: cancel) { events(.searching($0)) }
            if let stockVoice = result.stockVoice, !request.keepStock {
                // Its state stays: the same command with a larger budget goes on from here.
                throw ModelError(.badInput, String(format: "the search found no voice closer to the clip than the stock voice %@ "
                    + "(similarity %.3f on the choosing texts), so nothing was saved: speak with %@ itself, search longer "
                    + "(the same command with a larger budget goes on from here), or keep that stock voice under the new name "
                    + "(--keep-stock; keep_stock=true over HTTP)", stockVoice, result.similarity, stockVoice))
            }
            if let state = options.stateFile { try? FileManager.default.removeItem(at: state) }
            conditioning = result.conditioning
            searchResult = result
            family = searchFamily
            language = request.language ?? search.language
        }
        let profile = VoiceProfile(
            id: request.name, language: language, model: cloner.model, family: family,
            source: .init(clipSHA256: clip.sha256, seconds: clip.speech.duration, transcript: transcript,
                          consent: request.consent, speakerEmbedding: embedding),
            conditioning: conditioning)
        do {
            try library.add(profile, replacing: request.replacing)
        } catch let error as VoiceLibraryError {
            throw ModelError(.badInput, error.message)
        }
        return VoiceCloneResult(profile: profile, search: searchResult)
    }

    /// Speaks `sentences` with library voice `id` and with every stock voice of its model, and measures
    /// how close each one's speech is to the voice's source clip (cosine of speaker embeddings).
    public func checkVoice(_ id: String, sentences: [String]? = nil, stock: Bool = true) async throws -> VoiceCheck {
        guard let profile = library.snapshot().profile(id) else {
            throw ModelError(.unknownVoice, "the voice library has no voice '\(id)'")
        }
        guard let target = profile.source?.speakerEmbedding else {
            throw ModelError(.badInput, "voice '\(id)' keeps no speaker embedding of its clip (it was added without the speaker embedder); add it again")
        }
        let embedder = try await speakerEmbedder()
        let sentences = sentences ?? SearchTexts.heldOut
        @Sendable func score(_ voice: String) async throws -> VoiceCheck.Score {
            var total = 0.0
            for sentence in sentences {
                var samples: [Float] = []
                var rate = 16000
                for try await chunk in synthesize(SynthesisRequest(text: sentence, voice: voice)) {
                    samples += chunk.samples
                    rate = chunk.sampleRate
                }
                let speech = AudioBuffer(mono: samples, sampleRate: rate)
                total += VoiceSearch.cosine(try await BlockingWork.run(cancel: CancellationToken()) { try embedder.embedding(speech, cancel: $0) },
                                            target)
            }
            return VoiceCheck.Score(voice: voice, similarity: total / Double(max(1, sentences.count)))
        }
        // Two voices at a time (each a synthesis and an embedding at a time: about a core).
        let voices = [id] + (stock ? currentStockVoices.filter { $0.model == profile.model }.map(\.id) : [])
        let scores = try await concurrentScores(voices, width: 2) { try await score($0) }
        return VoiceCheck(voice: scores[0], stock: scores.dropFirst().sorted { $0.similarity > $1.similarity }, sentences: sentences)
    }

    private func isStockVoice(_ id: String) -> Bool {
        currentStockVoices.contains { $0.id == id }
    }

    /// The cloner `model` names (a model id or a family), or the first there is.
    private func cloner(for model: String?) async throws -> Cloner {
        let encoders = models(offering: .voiceEncoding).filter { model == nil || $0.manifest.id == model || $0.manifest.family == model }
        if let first = encoders.first, let encoder = try await self.model(first.manifest.id).voiceEncoder {
            return .encoder(model: first.manifest.id, family: first.manifest.family, encoder)
        }
        let searching = families.all.compactMap { family in (family as? any VoiceSearchingFamily).map { (family.name, $0) } }
        for candidate in models(offering: .synthesis) where model == nil || candidate.manifest.id == model || candidate.manifest.family == model {
            guard let (family, search) = searching.first(where: { $0.0 == candidate.manifest.family }) else { continue }
            let renderer = try await renderer(for: candidate.manifest.id)
            if search.voiceSearch(for: renderer, embed: { _ in [] }, transcribe: nil) != nil {
                return .search(model: candidate.manifest.id, family: family, search, renderer)
            }
        }
        let cloning = models(offering: .voiceEncoding).map(\.manifest.id)
            + models(offering: .synthesis).filter { model in searching.contains { $0.0 == model.manifest.family } }.map(\.manifest.id)
        if let model {
            throw ModelError(.badModel, "'\(model)' is no installed model that clones voices (installed: "
                + (cloning.isEmpty ? "none" : cloning.joined(separator: ", ")) + ")")
        }
        let install = searching.map { "install \($0.1.displayName) with: warble models pull \($0.1.searchModel)" }
        throw ModelError(.badModel, "no installed model clones voices" + (install.isEmpty ? "" : "; " + install.joined(separator: "; ")))
    }

    /// English speech to text (greedy) for the search's intelligibility guard, by the smallest installed
    /// recogniser of English: it only has to tell speech heard clearly from a mumble, and it hears every
    /// finalist of a search on several texts. Nil when none is installed.
    private func intelligibilityJudge() -> (@Sendable (AudioBuffer) async throws -> String)? {
        let english = Set(recognitionModels().filter { $0.languages.contains("en") }.map(\.id))
        guard let model = models(offering: .recognition).filter({ english.contains($0.manifest.id) })
            .min(by: { $0.manifest.totalBytes < $1.manifest.totalBytes })?.manifest.id else { return nil }
        return { [self] audio in
            var options = TranscriptionOptions(language: "en", beamSize: 1)
            options.conditionOnPreviousText = false
            var text: [String] = []
            for try await segment in self.transcribe(audio, model: model, options: options) { text.append(segment.text) }
            return text.joined(separator: " ")
        }
    }

    /// What `speech` says, by the first multilingual recognition model (else the first one).
    private func transcribe(_ speech: AudioBuffer) async throws -> String {
        let models = recognitionModels()
        guard let model = models.first(where: \.canTranslate) ?? models.first else {
            throw ModelError(.badModel, "--transcribe needs a speech recognition model; install one with warble models pull "
                + "(warble models list shows them)")
        }
        var text: [String] = []
        for try await segment in transcribe(speech, model: model.id, options: TranscriptionOptions()) {
            text.append(segment.text.trimmingCharacters(in: .whitespaces))
        }
        return text.joined(separator: " ")
    }
}
