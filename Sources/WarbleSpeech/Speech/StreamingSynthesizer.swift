import Foundation
import WarbleAudio
import WarbleText

/// The streaming text-to-speech pipeline shared by every model family: plan the request (SSML,
/// chunks, normalisation, pauses), render each utterance with the family's renderer, and hand out
/// audio chunk by chunk as the consumer asks for it.
///
/// Pull-based: the next utterance is rendered when the consumer asks for the next chunk, so memory
/// stays flat however long the text, and cancelling the consuming task stops the run in progress
/// (through the run's `CancellationToken`, which a family ties to its backend's stop switch) and everything after it.
///
/// Prosody: rate changes the model's speed; volume is a gain; pitch is not something Piper or Kokoro
/// can change, so it is ignored.
///
/// With `lookahead` on, the utterance after the one being handed out is rendered at the same time, on
/// another core: a machine with two cores finishes a text sooner running two utterances on one thread
/// each than one utterance on two threads (ONNX Runtime's threads scale by 1.6–1.8 on these models).
/// Memory then holds two utterances in flight instead of one, still flat with the text's length.
public struct StreamingSynthesizer<Renderer: UtteranceRenderer>: SpeechSynthesizer {
    public let renderer: Renderer
    /// Length of the fade applied at both edges of every utterance, in seconds (no clicks at joins).
    public var edgeFade: Double
    /// Whether the next utterance is rendered while the current one is handed out.
    public var lookahead: Bool

    /// A voice from the voice library that requests may name (nil: the renderer's own voices only).
    public var profile: VoiceProfile?
    /// A pronunciation lexicon applied to every request (see `SpeechPlanner.lexicon`).
    public var lexicon: PronunciationLexicon?

    public init(renderer: Renderer, edgeFade: Double = 0.005, lookahead: Bool = false, profile: VoiceProfile? = nil,
                lexicon: PronunciationLexicon? = nil) {
        self.renderer = renderer
        self.edgeFade = edgeFade
        self.lookahead = lookahead
        self.profile = profile
        self.lexicon = lexicon
    }

    public var voices: [VoiceDescription] { renderer.voices }
    public var sampleRate: Int { renderer.sampleRate }

    public func synthesize(_ request: SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error> {
        let run = SynthesisRun(renderer: renderer, request: request, edgeFade: edgeFade, lookahead: lookahead, profile: profile,
                               lexicon: lexicon)
        return AsyncThrowingStream(unfolding: { try await run.next() })
    }

    /// The plan a request would follow (for tests and tools).
    public func plan(_ request: SynthesisRequest) throws -> [PlannedItem] {
        try SynthesisRun.planner(for: renderer, request: request, lexicon: lexicon).plan(request.text, isSSML: request.isSSML)
    }
}

/// The state of one request: its plan and how far it has got. Dies with the request.
actor SynthesisRun<Renderer: UtteranceRenderer> {
    private let renderer: Renderer
    private let request: SynthesisRequest
    private let fadeFrames: Int
    private var plan: SpeechPlan?
    private var planner: SpeechPlanner
    private var pendingEvents: [SpeechEvent] = []
    private var finished = false
    /// Silence still to hand out, in frames: a pause leaves in pieces of at most `silencePieceFrames`,
    /// so no allocation is ever sized by a number written in the request.
    private var pendingSilence = 0
    /// Frames handed out so far (for the request's maximum duration).
    private var emittedFrames = 0
    /// The utterance being rendered piece by piece, if any.
    private var job: (rendering: any UtteranceRendering, emitted: Int, events: [SpeechEvent], cancel: CancellationToken)?
    /// Speeds the utterance being rendered up beyond what its model can (nil: the model speaks the rate).
    private var stretcher: TimeStretcher?
    private let lookahead: Bool
    /// Plan items taken ahead of time while looking for the next utterance, in order.
    private var aheadItems: [PlannedItem] = []
    /// The next utterance, being rendered whole in the background (with `lookahead`).
    private var prefetch: (utterance: Utterance, task: Task<RenderedUtterance, any Error>, cancel: CancellationToken)?

    private let profile: VoiceProfile?

    init(renderer: Renderer, request: SynthesisRequest, edgeFade: Double, lookahead: Bool = false, profile: VoiceProfile? = nil,
         lexicon: PronunciationLexicon? = nil) {
        self.renderer = renderer
        self.profile = profile
        self.request = request
        self.fadeFrames = Int(edgeFade * Double(renderer.sampleRate))
        self.planner = Self.planner(for: renderer, request: request, lexicon: lexicon)
        self.lookahead = lookahead
    }

    deinit {
        // The consumer went away: stop the background rendering too.
        if let prefetch { Self.stop(prefetch.task, prefetch.cancel) }
    }

    /// Stops a background rendering: the task and the model run inside it.
    private static func stop(_ task: Task<RenderedUtterance, any Error>, _ cancel: CancellationToken) {
        task.cancel()
        cancel.cancel()
    }

    /// Stops the background rendering (after an error).
    private func stopPrefetch() {
        if let prefetch { Self.stop(prefetch.task, prefetch.cancel) }
        prefetch = nil
    }

    static func planner(for renderer: Renderer, request: SynthesisRequest, lexicon: PronunciationLexicon?) -> SpeechPlanner {
        // The pauses between sentences and clauses follow the speaking rate (explicit breaks do not).
        let rate = request.rate.isFinite && request.rate > 0 ? request.rate : 1
        let sentencePause = SpeechLimits.clamp(request.sentencePause / rate, 0...SpeechLimits.maximumBreak)
        var planner = SpeechPlanner(language: request.language ?? renderer.language, chunkLimit: .characters(renderer.chunkCharacters),
                                    sentencePause: sentencePause, clausePause: sentencePause * 0.4)
        planner.firstChunkCharacters = renderer.firstChunkCharacters
        planner.lexicon = lexicon
        return planner
    }

    func next() async throws -> AudioChunk? {
        if finished { return nil }
        do {
            return try await produce()
        } catch {
            finished = true
            stopPrefetch()
            throw error
        }
    }

    /// The next plan item: those taken ahead first.
    private func nextItem() throws -> PlannedItem? {
        if !aheadItems.isEmpty { return aheadItems.removeFirst() }
        return try plan?.next()
    }

    /// The utterance as it will be spoken (normalised, and cut again if normalising made it far longer
    /// than a chunk), without the parts that have nothing to say.
    private func spoken(_ utterance: Utterance) -> [Utterance] {
        planner.spokenParts(utterance).filter { spoken in
            spoken.phonemes != nil || spoken.text.contains(where: { $0.isLetter || $0.isNumber })
        }
    }

    /// The largest piece of silence handed out at once: a quarter of a second.
    private var silencePieceFrames: Int { max(1, renderer.sampleRate / 4) }

    private func produce() async throws -> AudioChunk? {
        if plan == nil { plan = try start() }
        if job != nil { return try await continueJob() }
        if pendingSilence > 0 { return try emitSilence() }
        while let item = try nextItem() {
            try Task.checkCancellation()
            switch item {
            case .mark(let name):
                pendingEvents.append(.mark(name: name, sampleOffset: 0))
            case .pause(let seconds):
                // The parser and planner bound every pause; this guards the conversion all the same.
                let bounded = SpeechLimits.clamp(seconds, 0...SpeechLimits.maximumBreak)
                pendingSilence = Int((bounded * Double(renderer.sampleRate)).rounded())
                return try emitSilence()
            case .utterance(let utterance):
                let parts = spoken(utterance)
                guard let spoken = parts.first else { continue }
                aheadItems.insert(contentsOf: parts.dropFirst().map(PlannedItem.utterance), at: 0)
                currentProsodyVolume = spoken.prosody.volume
                return try await render(spoken)
            }
        }
        finished = true
        // Marks after the last sound still reach the listener, in an empty chunk.
        return pendingEvents.isEmpty ? nil : try emit(samples: [])
    }

    private func start() throws -> SpeechPlan {
        if let voice = request.voice, voice != profile?.id, !renderer.voices.contains(where: { $0.id == voice }) {
            throw ModelError(.unknownVoice, "unknown voice '\(voice)' for \(renderer.modelID); its voices are: "
                + renderer.voices.map(\.id).joined(separator: ", "))
        }
        guard SpeechLimits.rate.contains(request.rate) else {
            let (lowest, highest) = (SpeechLimits.describe(SpeechLimits.rate.lowerBound), SpeechLimits.describe(SpeechLimits.rate.upperBound))
            throw ModelError(.badInput, "rate must be from \(lowest) to \(highest) "
                + "(1 is the voice's own speed), got \(request.rate)")
        }
        guard SpeechLimits.volume.contains(request.volume) else {
            let highest = SpeechLimits.describe(SpeechLimits.volume.upperBound)
            throw ModelError(.badInput, "volume must be from 0 to \(highest) (1 is unchanged), got \(request.volume)")
        }
        try request.controls.validate()
        try renderer.validate(request.controls)
        if let language = request.language {
            guard !LanguageCode.primary(language).isEmpty, language.count <= 35,
                  language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw ModelError(.badInput, "'\(language)' is not a language code (BCP 47, e.g. pt-BR)")
            }
            guard renderer.speaks(language) else {
                throw ModelError(.badInput, "\(renderer.modelID) does not speak \(language) (it speaks \(renderer.language)); "
                    + "choose a voice of that language")
            }
        }
        guard request.sentencePause.isFinite, request.sentencePause >= 0 else {
            throw ModelError(.badInput, "the pause between sentences must be 0 or more seconds, got \(request.sentencePause)")
        }
        if let limit = request.maximumDuration {
            guard limit.isFinite, limit > 0 else {
                throw ModelError(.badInput, "the maximum duration must be a positive number of seconds, got \(limit)")
            }
            let breaks = try SpeechPlanner.explicitPauses(request.text, isSSML: request.isSSML)
            guard breaks <= limit else {
                throw ModelError(.badInput, "the text's breaks alone last \(Int(breaks.rounded(.up))) s, longer than the "
                    + "\(SpeechLimits.describe(limit)) s of audio one request may produce")
            }
        }
        return try planner.start(request.text, isSSML: request.isSSML)
    }

    /// The rate an utterance is spoken at.
    private func spokenRate(_ utterance: Utterance) -> Double {
        SpeechLimits.clamp(request.rate * utterance.prosody.rate, SpeechLimits.rate)
    }

    /// The voice and rate an utterance is rendered with: the spoken rate, or the model's fastest when
    /// the spoken rate is beyond it (a `TimeStretcher` does the rest).
    private func settings(_ utterance: Utterance) -> (voice: RenderVoice, rate: Double) {
        let voices = renderer.voices
        let rate = min(spokenRate(utterance), renderer.fastestRate)
        let controls = request.controls
        if let stock = utterance.voice.flatMap({ name in voices.first { $0.id == name || $0.displayName == name }?.id }) {
            return (RenderVoice(id: stock, controls: controls), rate)
        }
        let id = request.voice ?? renderer.defaultVoice
        if let profile, profile.id == id {
            return (RenderVoice(id: id, conditioning: profile.conditioning, revision: profile.created.timeIntervalSince1970,
                                controls: controls), rate)
        }
        return (RenderVoice(id: id, controls: controls), rate)
    }

    private func render(_ utterance: Utterance) async throws -> AudioChunk {
        let rendering: any UtteranceRendering
        let cancel: CancellationToken
        if let ahead = prefetch, ahead.utterance == utterance {
            prefetch = nil
            // The one after it starts now, so that two are always being rendered.
            if lookahead { try startPrefetch() }
            cancel = ahead.cancel
            rendering = WholeRendering(try await withTaskCancellationHandler {
                try await ahead.task.value
            } onCancel: {
                Self.stop(ahead.task, ahead.cancel)
            })
            try Task.checkCancellation()
        } else {
            if lookahead { try startPrefetch() }
            let (voice, rate) = settings(utterance)
            let token = CancellationToken()
            cancel = token
            let renderer = self.renderer
            rendering = try await cancellable(token) {
                try renderer.begin(utterance, voice: voice, rate: rate, cancel: token)
            }
        }
        var events: [SpeechEvent] = [.sentence(sourceRange: utterance.sourceRange, sampleOffset: 0)]
        events += WordTiming.events(words: utterance.words, weights: rendering.wordWeights,
                                    sampleCount: rendering.totalSamples)
        job = (rendering, 0, events, cancel)
        let speed = spokenRate(utterance) / settings(utterance).rate
        stretcher = speed > 1.001 ? TimeStretcher(speed: speed, sampleRate: renderer.sampleRate) : nil
        return try await continueJob()
    }

    /// Finds the next utterance in the plan (keeping the items before it for later) and starts
    /// rendering it whole in the background.
    private func startPrefetch() throws {
        guard prefetch == nil else { return }
        var index = 0
        var next: Utterance?
        while next == nil {
            if index == aheadItems.count {
                guard let item = try plan?.next() else { return }
                aheadItems.append(item)
            }
            if case .utterance(let utterance) = aheadItems[index] {
                // Kept in its normalised form, so that it matches the prefetch when its turn comes.
                let parts = spoken(utterance)
                aheadItems.replaceSubrange(index...index, with: parts.map(PlannedItem.utterance))
                guard let first = parts.first else { continue }
                next = first
            }
            index += 1
        }
        guard let next else { return }
        let (voice, rate) = settings(next)
        let cancel = CancellationToken()
        let renderer = self.renderer
        let task = Task<RenderedUtterance, any Error> {
            try await BlockingWork.run { try renderer.render(next, voice: voice, rate: rate, cancel: cancel) }
        }
        prefetch = (next, task, cancel)
    }

    /// The next piece of the utterance being rendered, with the events that fall inside it.
    private func continueJob() async throws -> AudioChunk {
        guard let current = job else { throw ModelError(.failed, "no utterance is being rendered") }
        let rendering = current.rendering
        let cancel = current.cancel
        var samples = try await cancellable(cancel) { try rendering.nextPiece(cancel: cancel) }
        // A model fed damaged conditioning answers NaN or infinity, which every encoder would write as noise or silence.
        guard samples.allSatisfy(\.isFinite) else {
            throw ModelError(.failed, "the voice '\(request.voice ?? renderer.defaultVoice)' made samples that are not numbers: its model or conditioning is damaged")
        }
        let start = current.emitted
        let end = start + samples.count
        let last = rendering.isFinished
        let stretched = stretcher
        if let stretched {
            samples = stretched.process(samples) + (last ? stretched.finish() : [])
            if last { stretcher = nil }
        }
        MonoSamples.applyGain(&samples, Float(request.volume * currentProsodyVolume))
        MonoSamples.limitPeaks(&samples)
        if start == 0 { MonoSamples.fadeIn(&samples, frames: fadeFrames, curve: .raisedCosine) }
        if last { MonoSamples.fadeOut(&samples, frames: fadeFrames, curve: .raisedCosine) }
        let (inside, later) = current.events.partitioned { last || $0.sampleOffset < end }
        pendingEvents += inside.map { event in
            guard let stretched else { return event.shifted(by: -start) }
            // Stretched: the offset scaled into this piece (estimated, as the stretcher's latency moves it).
            let offset = min(samples.count, max(0, Int(Double(event.sampleOffset - start) / stretched.speed)))
            return event.shifted(by: offset - event.sampleOffset)
        }
        job = last ? nil : (rendering, end, later, cancel)
        // The request's first audio, from an utterance that is all there is to say and whose length is
        // exact already: its length is the request's, known now (a WAV header can say it before the
        // first byte); sped up by the stretcher, the length its output will have. A model still writing
        // speech tokens only has an estimate: no length then.
        let whole = try start == 0 && emittedFrames == 0 && rendering.lengthIsExact && planIsExhausted()
        let frames = whole ? stretched.map { $0.outputFrames(forInput: rendering.totalSamples) } ?? rendering.totalSamples : nil
        return try emit(samples: samples, requestFrames: frames)
    }

    private var currentProsodyVolume: Double = 1

    private func cancellable<T: Sendable>(_ cancel: CancellationToken, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingWork.run(cancel: cancel) { _ in try body() }
    }

    /// The next piece of the pause being handed out.
    private func emitSilence() throws -> AudioChunk {
        let frames = min(pendingSilence, silencePieceFrames)
        pendingSilence -= frames
        return try emit(samples: [Float](repeating: 0, count: frames))
    }

    private func emit(samples: [Float], requestFrames: Int? = nil) throws -> AudioChunk {
        emittedFrames += samples.count
        if let limit = request.maximumDuration, Double(emittedFrames) > limit * Double(renderer.sampleRate) {
            throw ModelError(.badInput, "the audio grew past the \(SpeechLimits.describe(limit)) s one request may produce; "
                + "send the text in smaller requests")
        }
        defer { pendingEvents.removeAll() }
        return AudioChunk(samples: samples, sampleRate: renderer.sampleRate, events: pendingEvents,
                          requestFrames: requestFrames)
    }

    /// Whether the plan holds no more audio: nothing, or marks only (peeked items are kept for later).
    /// Items that turn out to have nothing to say count as audio.
    private func planIsExhausted() throws -> Bool {
        guard pendingSilence == 0 else { return false }
        var index = 0
        while true {
            if index == aheadItems.count {
                guard let item = try plan?.next() else { return true }
                aheadItems.append(item)
            }
            guard case .mark = aheadItems[index] else { return false }
            index += 1
        }
    }
}

extension Array {
    /// The elements that satisfy `belongs`, and the rest, in order.
    fileprivate func partitioned(_ belongs: (Element) -> Bool) -> ([Element], [Element]) {
        var yes: [Element] = []
        var no: [Element] = []
        for element in self {
            if belongs(element) { yes.append(element) } else { no.append(element) }
        }
        return (yes, no)
    }
}
