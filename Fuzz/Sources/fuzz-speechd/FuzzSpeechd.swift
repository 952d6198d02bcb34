import Foundation
import WarbleSpeech
import WarbleText
@testable import WarbleSpeechd

/// libFuzzer entry: speech-dispatcher's module protocol fed arbitrary bytes, read line by line as
/// sd_warble reads standard input. Every request is taken as the module takes it: SET lines go into
/// the settings, AUDIO/LOGLEVEL values are read, SPEAK/CHAR/KEY/SOUND_ICON become the plan of what to
/// say (spelling, capitals, rate, pitch, volume), LIST VOICES is answered. None of it may crash; a
/// plan's rate, volume and playback speed must be finite and in range.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpeechd(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var reader = RequestReader()
    var settings = SpeechSettings()
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        let text = String(decoding: UnsafeBufferPointer(rebasing: line), as: UTF8.self)
        guard case .request(let request) = reader.consume(text) else { continue }
        switch request {
        case .set(let lines):
            for setting in lines { try? settings.apply(setting) }
        case .audio(let lines), .logLevel(let lines):
            _ = lines.last.flatMap { Int($0.value) }
        case .speak(let kind, let message):
            let choice = chooser.choose(for: settings)
            let plan = UtterancePlan.make(kind: kind, text: message, settings: settings, voice: choice.voice.id,
                                          soundIconFolder: "/nonexistent/sounds", fileExists: { _ in false })
            let request = plan.request
            precondition(request.rate.isFinite && (0.25...4).contains(request.rate), "rate \(request.rate)")
            precondition(request.volume.isFinite && (0...1).contains(request.volume), "volume \(request.volume)")
            precondition(plan.playbackSpeed.isFinite && plan.playbackSpeed > 0, "playback speed \(plan.playbackSpeed)")
            if request.isSSML { _ = try? SSMLParser().parse(request.text) }
        case .listVoices(let language, let variant):
            _ = chooser.listing(language: language, variant: variant)
        case .initialize, .stop, .pause, .debug, .quit, .unknown:
            break
        }
    }
    return 0
}

/// Two voices, so that choosing by language and voice type has something to choose between.
private let chooser: VoiceChooser = {
    let voices = [
        VoiceDescription(id: "en_US-joe-medium", displayName: "Joe", language: "en-US", model: "piper",
                         sampleRate: 22050, gender: "male"),
        VoiceDescription(id: "kokoro-jf_alpha", displayName: "Alpha", language: "ja", model: "kokoro",
                         sampleRate: 24000, gender: "female"),
    ]
    return VoiceChooser(voices: voices, defaultVoice: voices[0])
}()

// SwiftPM links an executable with `main` renamed to `<target>_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("fuzz_speechd_main")
public func fuzzSpeechdMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { fuzzSpeechd($0, $1) }
}
