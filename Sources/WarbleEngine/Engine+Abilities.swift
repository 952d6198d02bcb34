import Foundation
import WarbleAudio
import WarbleModels
import WarbleSpeech

extension Engine {
    // MARK: Recognition

    /// Every installed speech recognition model.
    public func recognitionModels() -> [RecognitionModelDescription] {
        models(offering: .recognition).map { model in
            let languages = model.manifest.languages.isEmpty ? ["en"] : model.manifest.languages
            let translates = families.family(named: model.manifest.family)?.translatesSpeech ?? false
            return RecognitionModelDescription(id: model.manifest.id, languages: languages, canTranslate: translates && languages.count > 1)
        }
    }

    /// The speech recognizer of model `id`, loaded once and shared.
    public func recognizer(for id: String) async throws -> any SpeechRecognizer {
        guard isInstalled(id, offering: .recognition) else {
            let known = recognitionModels().map(\.id)
            throw ModelError(.badModel, "speech recognition model '\(id)' is not installed (installed: "
                + (known.isEmpty ? "none" : known.joined(separator: ", ")) + ")")
        }
        guard let recognizer = try await model(id).recognizer else {
            throw ModelError(.badModel, "model '\(id)' does not recognise speech")
        }
        return recognizer
    }

    /// The language spoken in the first 30 s of `audio` and its probability, by the multilingual Whisper model
    /// `id`; nil when that model cannot tell (not Whisper, or English-only).
    public func detectLanguage(_ audio: AudioBuffer, model id: String) async throws -> (language: String, probability: Double)? {
        guard let whisper = try await recognizer(for: id) as? WhisperRecognizer, whisper.model.configuration.multilingual else {
            return nil
        }
        let detection = try await whisper.detectLanguage(audio)
        return (detection.language, detection.probability)
    }

    /// Recognises `audio` with model `id`, streaming segments; cancelling the consuming task stops the work.
    /// With `detector`, only the stretches it hears as speech are recognised (times stay those of `audio`).
    public nonisolated func transcribe(_ audio: AudioBuffer, model id: String, options: TranscriptionOptions,
                                       detector: (any VoiceActivityDetector)? = nil, detection: SpeechDetectionOptions = .init())
        -> AsyncThrowingStream<TranscriptSegment, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let recognizer = try await self.recognizer(for: id)
                    await self.begin(model: id, status: .recognizing(model: id))
                    defer { Task { await self.finish(model: id) } }
                    let stream = detector.map {
                        VoiceActivityFilter(recognizer: AnyRecognizer(recognizer), vad: $0, detection: detection).transcribe(audio, options: options)
                    } ?? recognizer.transcribe(audio, options: options)
                    for try await segment in stream { continuation.yield(segment) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    // MARK: Voice activity, voice encoding, translation

    /// The voice activity detector of model `id`, or of the first installed one for nil.
    public func voiceActivityDetector(_ id: String? = nil) async throws -> any VoiceActivityDetector {
        let id = try chooseModel(id, offering: .voiceActivity, what: "voice activity detection", install: ModelDefaults.pullCommand(\.voiceActivity))
        guard let detector = try await model(id).voiceActivityDetector else {
            throw ModelError(.badModel, "model '\(id)' does not detect voice activity")
        }
        return detector
    }

    /// The voice encoder (cloning) of model `id`, or of the first installed model that has one.
    public func voiceEncoder(_ id: String? = nil) async throws -> any VoiceEncoder {
        let id = try chooseModel(id, offering: .voiceEncoding, what: "voice cloning", install: "warble models pull")
        guard let encoder = try await model(id).voiceEncoder else {
            throw ModelError(.badModel, "model '\(id)' does not clone voices")
        }
        return encoder
    }

    /// The speaker embedder of model `id`, or of the first installed one (the set-up's `speaker-dvector`),
    /// loaded once and shared. Compare two clips with `SpeakerEmbedder.cosine` of their embeddings.
    public func speakerEmbedder(_ id: String? = nil) async throws -> any SpeakerEmbedding {
        let id = try chooseModel(id, offering: .speakerEmbedding, what: "speaker embedding",
                                 install: ModelDefaults.pullCommand(\.speakerEmbedding))
        guard let embedder = try await model(id).speakerEmbedder else {
            throw ModelError(.badModel, "model '\(id)' does not embed speakers")
        }
        return embedder
    }

    /// The translator of model `id`, or of the first installed one.
    public func translator(_ id: String? = nil) async throws -> any TextTranslator {
        let id = try chooseModel(id, offering: .translation, what: "translation", install: "warble models pull")
        guard let translator = try await model(id).translator else {
            throw ModelError(.badModel, "model '\(id)' does not translate")
        }
        return translator
    }

    private func isInstalled(_ id: String, offering ability: Ability) -> Bool {
        models(offering: ability).contains { $0.manifest.id == id }
    }

    /// `id` when it is installed and offers `ability`; for nil, the first installed model that does.
    private func chooseModel(_ id: String?, offering ability: Ability, what: String, install: String) throws -> String {
        let candidates = models(offering: ability).map(\.manifest.id)
        if let id {
            guard candidates.contains(id) else {
                throw ModelError(.badModel, "model '\(id)' is not an installed \(what) model (installed: "
                    + (candidates.isEmpty ? "none" : candidates.joined(separator: ", ")) + ")")
            }
            return id
        }
        guard let first = candidates.first else {
            throw ModelError(.badModel, "no \(what) model is installed; install one with \(install)")
        }
        return first
    }
}

/// A recognizer behind an existential, for the generic `VoiceActivityFilter`.
struct AnyRecognizer: SpeechRecognizer {
    let base: any SpeechRecognizer

    init(_ base: any SpeechRecognizer) {
        self.base = base
    }

    func transcribe(_ audio: AudioBuffer, options: TranscriptionOptions) -> AsyncThrowingStream<TranscriptSegment, any Error> {
        base.transcribe(audio, options: options)
    }
}

extension Engine: SynthesisService, RecognitionService {
    public func installedVoices() async -> [VoiceDescription] { voices }
    public func defaultVoiceID() async -> String? { defaultVoice?.id }
    public func languages(ofModel id: String) async -> [String] { installed[id]?.manifest.languages ?? [] }

    public func acceptsInstructions(voice id: String) async -> Bool {
        guard let model = voices.first(where: { $0.id == id })?.model, let renderer = try? await renderer(for: model) else { return false }
        return (try? renderer.validate(VoiceControls(instruction: "Speak clearly."))) != nil
    }

    public nonisolated func transcribe(_ audio: AudioBuffer, model: String, options: TranscriptionOptions)
        -> AsyncThrowingStream<TranscriptSegment, any Error> {
        transcribe(audio, model: model, options: options, detector: nil)
    }
}

extension Engine {
    /// What the built-in family `name` can do (none for a family this Warble cannot run), without an engine:
    /// what `warble models pull` and `models available` ask of a catalogue entry.
    public static func abilities(ofFamily name: String) -> Set<Ability> {
        ModelFamilies.builtIn.abilities(of: name)
    }
}
