import ArgumentParser
import Foundation
import WarbleEngine
import WarbleHistory
import WarbleSpeech

/// `--no-history`, for the commands that keep their sessions by default (transcribe, translate).
struct HistoryOptOut: ParsableArguments {
    @Flag(name: .customLong("no-history"), help: "Do not keep this session in the history (`warble history`).")
    var noHistory = false

    var enabled: Bool { !noHistory }
}

/// `--history`, for the commands that keep a session only when asked (say).
struct HistoryOptIn: ParsableArguments {
    @Flag(name: .customLong("history"), help: "Keep this session (text and audio) in the history (`warble history`).")
    var keep = false

    var enabled: Bool { keep }
}

/// Records a command's session in `$WARBLE_HOME/history`. Never fails the command: a history that cannot be
/// written (read-only home, full disk) is a warning on standard error, after the command's output.
enum HistoryRecorder {
    /// The marker that says the first-use note was shown.
    static let noticeMarker = ".first-use-noted"

    /// Records `session` (when `enabled`); returns its id, or nil when it was not kept.
    @discardableResult
    static func record(_ session: NewSession, enabled: Bool = true, home: URL = ModelStore.defaultHome) -> Int64? {
        guard enabled else { return nil }
        let directory = HistoryStore.directory(home: home)
        let id = keeping("session") { try HistoryStore(directory: directory).record(session) }
        if id != nil { noteFirstUse(in: directory) }
        return id
    }

    /// Runs `write`; a failure is a warning on standard error ("`what` not kept in history: why"), never an error.
    static func keeping(_ what: String, _ write: () throws -> Int64) -> Int64? {
        do {
            return try write()
        } catch let error as HistoryError {
            SpeechInput.note("warning: \(what) not kept in history: \(error.message)")
        } catch {
            SpeechInput.note("warning: \(what) not kept in history: \(error)")
        }
        return nil
    }

    /// An audio file's bytes, kept in the role given, its format from its extension (nil for standard
    /// input or output, which cannot be read again, and for a file that cannot be read).
    static func audioFile(_ path: String?, role: SessionAudioRole) -> NewSession.Audio? {
        guard let path, path != "-", let data = FileManager.default.contents(atPath: path) else { return nil }
        let format = URL(fileURLWithPath: path).pathExtension
        return NewSession.Audio(role: role, data: data, format: format.isEmpty ? "bin" : format)
    }

    private static func noteFirstUse(in directory: URL) {
        let marker = directory.appendingPathComponent(noticeMarker)
        guard !FileManager.default.fileExists(atPath: marker.path) else { return }
        SpeechInput.note("keeping this session in history (\(directory.path); add `--no-history` to skip; `warble history` to see it)")
        _ = FileManager.default.createFile(atPath: marker.path, contents: Data())
    }
}

extension HistoryRecorder {
    /// A `warble transcribe` session for one input file: transcript, SRT cues, the file's audio (none for live input).
    static func transcription(file: String?, segments: [TranscriptSegment], duration: Double, model: String, seconds: Double) -> NewSession {
        let transcript = segments.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        var texts: [SessionTextRole: String] = [.transcript: transcript]
        if let srt = try? TranscriptFormat.srt.render(segments, language: segments.first?.language, duration: duration), !srt.isEmpty {
            texts[.srt] = srt
        }
        return NewSession(kind: .transcription, model: model, sourceLanguage: segments.first?.language, duration: duration,
                          timings: ["total": seconds], texts: texts.filter { !$0.value.isEmpty },
                          audio: [audioFile(file, role: .input)].compactMap { $0 })
    }
}

extension HistoryRecorder {
    /// A `warble say --history` session: the text, the voice, and the audio written with -o (when it went to a file).
    static func speech(text: String, voice: String, output: String?) -> NewSession {
        NewSession(kind: .speech, voice: voice, texts: [.source: text], audio: [audioFile(output, role: .output)].compactMap { $0 })
    }
}

extension HistoryRecorder {
    /// A `warble translate` session from its segments: Whisper's text (transcript), the translation and its SRT
    /// cues, the route and the timings, the input audio (none for live input) and the spoken translation written with
    /// -o (when a file).
    static func translation(input: String?, segments: [TranslatedSegment], duration: Double, model: String, target: String,
                            voice: String?, speechSeconds: Double?, output: String?) -> NewSession {
        let transcript = segments.map(\.text).filter { !$0.isEmpty }.joined(separator: " ")
        let translation = segments.map(\.translation).filter { !$0.isEmpty }.joined(separator: " ")
        let cues = segments.map {
            TranscriptSegment(start: $0.start, end: $0.end, text: $0.translation, tokens: [], language: $0.targetLanguage)
        }
        var timings = ["recognition": segments.reduce(0) { $0 + $1.recognitionSeconds },
                       "translation": segments.reduce(0) { $0 + $1.translationSeconds }]
        timings["synthesis"] = speechSeconds
        let audio = [audioFile(input, role: .input), audioFile(output, role: .output)].compactMap { $0 }
        let texts: [SessionTextRole: String] = [.transcript: transcript, .translation: translation, .srt: TranscriptRendering.subRip(cues)]
        return NewSession(kind: .translation, model: model, voice: voice, sourceLanguage: segments.first?.spokenLanguage,
                          targetLanguage: segments.first?.targetLanguage ?? target, duration: duration, timings: timings,
                          texts: texts.filter { !$0.value.isEmpty }, audio: audio)
    }
}

extension HistoryRecorder {
    /// A `warble voice add --history` session: the voice made, its model, the clip (input audio), its transcript,
    /// and for a Kokoro search its time and similarity.
    static func clone(_ result: VoiceCloneResult, clip: String) -> NewSession {
        var timings: [String: Double] = [:]
        timings["search"] = result.search?.seconds
        let transcript = result.profile.source?.transcript ?? ""
        return NewSession(kind: .clone, model: result.profile.model, voice: result.profile.id, timings: timings,
                          texts: transcript.isEmpty ? [:] : [.transcript: transcript],
                          audio: [audioFile(clip, role: .input)].compactMap { $0 })
    }
}
