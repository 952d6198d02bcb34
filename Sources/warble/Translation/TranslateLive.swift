import Foundation
import WarbleEngine
import WarblePlayback
import WarbleSpeech

extension TranslateCommand {
    /// `--live`: speech from the sound server, translated a segment at a time as it is recognised,
    /// printed (and spoken into -o) until Ctrl-C or --max-seconds. The route is fixed before the audio
    /// comes: the language given, or (auto) English as the pivot for a target other than English.
    func runLive(engine: Engine, spoken: String?, speaker: TranslationSpeaker?) async throws {
        try await LiveInputOptions.requireDetector(in: engine)
        let route = try await engine.speechTranslationRoute(model: model, spoken: spoken, target: to)
        // Loaded before listening, so that the first segment does not wait for it.
        if let pair = route.translation { _ = try await engine.translator(for: pair) }
        let capture = try liveInput.startCapture()
        let interruption = Interruption.watch { capture.stop() }
        defer { interruption.stop() }
        let transcription = TranscriptionOptions(language: spoken, task: route.task, beamSize: beamSize)
        let transcriber = try await engine.liveTranscriber(model: model, options: LiveRecognitionOptions(transcription: transcription))
        // The text goes where the captions of `transcribe --live` go; with -o - the audio has standard output.
        let writer = try CaptionWriter(format: format, words: false, path: nil, handle: output == "-" ? .standardError : nil)
        if !quiet {
            SpeechInput.note("listening to \(liveInput.source ?? "the default source"); \(route) (Ctrl-C ends)")
        }
        var speaker = speaker
        var translated: [TranslatedSegment] = []
        for try await event in transcriber.events(from: capture.chunks) {
            guard case .utterance(let utterance) = event else { continue }
            for segment in utterance.segments {
                let result = try await engine.translated(segment, route: route, spoken: spoken)
                guard !result.translation.isEmpty else { continue }
                translated.append(result)
                if !quiet { Self.noteText(of: result) }
                try writer.settle([TranscriptSegment(start: result.start, end: result.end, text: result.translation, tokens: [],
                                                     language: result.targetLanguage)])
                try await speaker?.speak(result.translation)
            }
        }
        try speaker?.finish()
        try writer.close()
        if !quiet {
            let why = liveInput.stopReason(interruption)
            SpeechInput.note(String(format: "live: %d segment%@ translated in %.1f s of audio (%@)", translated.count,
                                    translated.count == 1 ? "" : "s", capture.capturedSeconds, why))
        }
        // The captions and the spoken translation are kept; the audio heard is not (it was never a file).
        if !translated.isEmpty {
            HistoryRecorder.record(
                HistoryRecorder.translation(input: nil, segments: translated, duration: capture.capturedSeconds, model: model, target: to,
                                            voice: speaker?.voice.id, speechSeconds: speaker?.synthesisSeconds, output: output),
                enabled: history.enabled)
        }
    }
}
