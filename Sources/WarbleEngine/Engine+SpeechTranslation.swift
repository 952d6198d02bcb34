import Foundation
import WarbleAudio
import WarbleModels
import WarbleSpeech

extension Engine {
    /// The installed text translators' language pairs.
    public var translationPairList: [LanguagePair] { translationPairs().map(\.pair) }

    /// Speech → text in `target`, segment by segment as Whisper recognises them (see
    /// `SpeechTranslationRoute.choose` for how). `options.language` nil detects the spoken language:
    /// for a non-English target, from Whisper's first segment (a transcription), after which the
    /// recognition goes on, or starts again with Whisper's translate task when English must be the
    /// pivot. Throws before any recognition when no installed model reaches `target`.
    public nonisolated func translateSpeech(_ audio: AudioBuffer, model id: String, to target: String,
                                            options: TranscriptionOptions, detector: (any VoiceActivityDetector)? = nil)
        -> AsyncThrowingStream<TranslatedSegment, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.runSpeechTranslation(audio, model: id, target: target, options: options,
                                                        detector: detector) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The route `translateSpeech` takes when the spoken language is `spoken` (nil: not known), or a
    /// clear error naming what to install.
    public func speechTranslationRoute(model id: String, spoken: String?, target: String) throws -> SpeechTranslationRoute {
        let pairs = translationPairList
        let translates = recognitionModels().first { $0.id == id }?.canTranslate ?? false
        if let route = SpeechTranslationRoute.choose(spoken: spoken, target: target, pairs: pairs, whisperTranslates: translates) {
            return route
        }
        let installed = pairs.isEmpty ? "none" : pairs.map(\.description).joined(separator: ", ")
        let knows = recognitionModels().first { $0.id == id }?.languages ?? []
        if !translates, knows.count > 1, let spoken, !LanguageCode.same(spoken, "en") {
            throw ModelError(.badModel, "\(id) has no translate task and no installed translation model reaches \(target) "
                + "from \(spoken) (installed translation models: \(installed))")
        }
        if !translates, let spoken, !LanguageCode.same(spoken, "en") {
            throw ModelError(.badModel, "\(id) is English-only: it cannot turn \(spoken) speech into English for a "
                + "translation into \(target); use a multilingual Whisper model" + multilingualHint)
        }
        throw ModelError(.badModel, "no installed translation model reaches \(target)"
            + (spoken.map { " from \($0)" } ?? "") + " (installed translation models: \(installed))")
    }

    private func runSpeechTranslation(_ audio: AudioBuffer, model id: String, target: String, options: TranscriptionOptions,
                                      detector: (any VoiceActivityDetector)?,
                                      yield: @Sendable (TranslatedSegment) -> Void) async throws {
        guard SpeechTranslationRoute.reachable(target, pairs: translationPairList) else {
            _ = try speechTranslationRoute(model: id, spoken: nil, target: target)
            return
        }
        var options = options
        // A non-English target with the language unknown: transcribe until the first segment says it.
        let detecting = options.language == nil && !LanguageCode.same(target, "en")
        var route = detecting ? nil : try speechTranslationRoute(model: id, spoken: options.language, target: target)
        options.task = route?.task ?? .transcribe
        while true {
            var restart = false
            var waitStart = ContinuousClock.now
            for try await segment in transcribe(audio, model: id, options: options, detector: detector) {
                let waited = ContinuousClock.now - waitStart
                if route == nil {
                    let chosen = try speechTranslationRoute(model: id, spoken: segment.language, target: target)
                    route = chosen
                    if chosen.task != options.task {
                        // English is the pivot: recognise again with Whisper's translate task.
                        options.language = segment.language
                        options.task = chosen.task
                        restart = true
                        break
                    }
                }
                guard let route else { continue }
                yield(try await translated(segment, route: route, spoken: options.language, recognitionSeconds: waited.seconds))
                waitStart = ContinuousClock.now
            }
            try Task.checkCancellation()
            if !restart { return }
        }
    }
}

extension Engine {
    /// `segment` (Whisper's, on `route`) with its translation: the route's translator applied to its
    /// text, or the text itself when Whisper gave the target language. `spoken`: the language given
    /// (nil: Whisper's detection).
    public func translated(_ segment: TranscriptSegment, route: SpeechTranslationRoute, spoken: String?,
                           recognitionSeconds: Double = 0) async throws -> TranslatedSegment {
        let start = ContinuousClock.now
        let text = segment.text.trimmingCharacters(in: .whitespaces)
        var translation = text
        if let pair = route.translation, !text.isEmpty {
            translation = try await translator(for: pair).translator.translate(text, pair: pair)
        }
        return TranslatedSegment(
            start: segment.start, end: segment.end, spokenLanguage: spoken ?? segment.language, text: text,
            textLanguage: route.textLanguage, translation: translation,
            targetLanguage: route.translation?.target ?? route.textLanguage,
            recognitionSeconds: recognitionSeconds, translationSeconds: (ContinuousClock.now - start).seconds)
    }

    /// A voice for text in `language`, and whether it is the voice's own language. With `id`, that
    /// voice (its model must speak the language). Without: the default voice when it is of that
    /// language, else the first installed voice of it, else the default voice of the first model that
    /// speaks it through its front end (a Kokoro voice with espeak-ng's phonemes for the language).
    public func voice(speaking language: String, preferring id: String? = nil) async throws -> (voice: VoiceDescription, native: Bool) {
        if let id {
            let chosen = try voice(id)
            if LanguageCode.same(chosen.language, language) { return (chosen, true) }
            if try await renderer(for: chosen.model).speaks(language) { return (chosen, false) }
            throw ModelError(.unknownVoice, "voice '\(chosen.id)' speaks \(chosen.language) and its model cannot speak "
                + "\(language); " + voiceHint)
        }
        let all = voices
        if let preferred = defaultVoice, LanguageCode.same(preferred.language, language) { return (preferred, true) }
        if let native = all.first(where: { LanguageCode.same($0.language, language) }) { return (native, true) }
        var tried = Set<String>()
        for model in ([defaultVoice?.model].compactMap { $0 } + all.map(\.model)) where tried.insert(model).inserted {
            guard let renderer = try? await renderer(for: model), renderer.speaks(language) else { continue }
            if let chosen = all.first(where: { $0.id == renderer.defaultVoice }) ?? all.first(where: { $0.model == model }) {
                return (chosen, false)
            }
        }
        throw ModelError(.unknownVoice, "no installed voice speaks \(language); " + voiceHint)
    }

    /// " (--model ID)" naming the installed recognition models that translate, or how to see the others.
    private var multilingualHint: String {
        let translating = recognitionModels().filter(\.canTranslate).map(\.id)
        return translating.isEmpty ? " (warble models list shows them)" : " (--model " + translating.joined(separator: " or ") + ")"
    }

    private var voiceHint: String {
        let suggestions = families.all.compactMap { ($0 as? any LanguageSuggesting)?.languageSuggestion }
        return suggestions.isEmpty ? "install a voice that speaks it (warble models list)" : suggestions.joined(separator: "; ")
    }
}
