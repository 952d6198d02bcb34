import Foundation
import WarbleSpeech
import WarbleText

/// How one message will be spoken: the request for the engine and how its audio is delivered.
struct UtterancePlan: Sendable {
    var request: SynthesisRequest
    /// Audio is declared to the server at `sampleRate × playbackSpeed`: above 1 it plays faster and
    /// higher. This is how pitch is done (the models cannot change it); the request's rate is divided by
    /// the same factor so that the speaking rate stays as asked.
    var playbackSpeed: Double
    /// Set for CHAR and KEY: where the rendered frames are cached.
    var cacheKey: FrameCache.Key?
    /// A sound icon file for the server to play instead of speech.
    var iconFile: String?
    /// Why the message's SSML could not be used (it is then spoken as plain text, its markup removed),
    /// for the log: a screen-reader user must never hear silence because of bad markup.
    var markupProblem: String?

    /// The plan for a message of `kind` with speech-dispatcher's `settings`, spoken by `voice`.
    static func make(kind: MessageKind, text: String, settings: SpeechSettings, voice: String,
                     soundIconFolder: String, fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
        -> UtterancePlan {
        var speed = settings.pitchFactor
        var spoken = text
        var isSSML = false
        var cached = false
        var iconFile: String?
        var markupProblem: String?
        switch kind {
        case .text:
            isSSML = SSMLParser.isSSML(text)
            if isSSML {
                do {
                    _ = try SSMLParser().parse(text)
                } catch {
                    markupProblem = "\(error)"
                    isSSML = false
                    spoken = SSMLParser.textWithoutMarkup(text)
                }
            }
            if settings.spelling {
                spoken = isSSML
                    ? SSMLTextMap.map(text) { SpokenText.spelled($0, capitals: settings.capitalLetters) }
                    : SpokenText.spelled(spoken, capitals: settings.capitalLetters)
            }
        case .character:
            spoken = SpokenText.character(text, capitals: settings.capitalLetters)
            cached = true
            // "icon" capital recognition: a capital is said higher, as espeak does.
            if settings.capitalLetters == .icon, text.count == 1, text.first?.isUppercase == true { speed *= 1.25 }
        case .key:
            spoken = SpokenText.key(text, capitals: settings.capitalLetters)
            cached = true
        case .soundIcon:
            let folder = soundIconFolder.hasSuffix("/") ? soundIconFolder : soundIconFolder + "/"
            iconFile = [folder + text, folder + text + ".wav"].first(where: fileExists)
            // No such sound: say the icon's name instead.
            spoken = text.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        }
        let rate = min(max(settings.rateFactor / speed, 0.25), 4)
        let isShort = kind == .character || kind == .key
        let request = SynthesisRequest(text: spoken, isSSML: isSSML, voice: voice, rate: rate, pitch: 1,
                                       volume: settings.volumeFactor, sentencePause: isShort ? 0 : 0.25)
        let key = cached ? FrameCache.Key(voice: voice, text: spoken, rate: rate, pitch: speed, volume: settings.volumeFactor) : nil
        return UtterancePlan(request: request, playbackSpeed: speed, cacheKey: key, iconFile: iconFile,
                             markupProblem: markupProblem)
    }
}
