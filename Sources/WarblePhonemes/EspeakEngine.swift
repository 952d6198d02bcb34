import CEspeakNG
import Foundation
import WarbleText

/// The process-wide espeak-ng instance. espeak-ng keeps global state and is not thread-safe, so every call
/// goes through `withLock`. Initialised on first use with `espeakINITIALIZE_DONT_EXIT` (errors never exit).
final class EspeakEngine: @unchecked Sendable {
    // All mutable state is guarded by `lock`.
    static let shared = EspeakEngine()

    private let lock = NSLock()
    private var initialized = false
    private var currentVoice: String?

    private init() {}

    /// espeak-ng opens an audio device when it starts, even for phonemes alone (its audio library probes
    /// PulseAudio by connecting, which writes `~/.config/pulse` and wakes the sound server). Warble wants only
    /// phonemes: while it starts, `PULSE_SERVER` names no server, so the probe fails at once and touches
    /// nothing; the variable is put back as it was right after.
    private static func withoutSoundServer<T>(_ body: () -> T) -> T {
        let saved = getenv("PULSE_SERVER").map { String(cString: $0) }
        setenv("PULSE_SERVER", "unix:/nonexistent/warble-no-audio", 1)
        defer {
            if let saved { setenv("PULSE_SERVER", saved, 1) } else { unsetenv("PULSE_SERVER") }
        }
        return body()
    }

    /// Runs `body` holding the lock, with espeak-ng initialised and `voice` selected.
    func withVoice<T>(_ voice: String, _ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        try initialize()
        try select(voice)
        return try body()
    }

    /// Runs `body` holding the lock, with the voice the Python `phonemizer` package picks for `language`
    /// (its `EspeakWrapper.set_voice`): the first voice in espeak-ng's list whose first language is
    /// `language` (mbrola voices skipped), selected by its identifier ("gmw/en-US" for "en-us").
    /// `language` is compared without regard to case, so BCP 47 spellings ("en-US") work too.
    func withLanguageVoice<T>(_ language: String, _ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        try initialize()
        guard let identifier = Self.firstVoice(language: language.lowercased()) else {
            let known = Self.languages()
            let sample = known.prefix(40).joined(separator: ", ")
            throw TextError(.phonemizer, "espeak-ng has no voice for the language \"\(language)\"; installed (\(known.count)): \(sample)\(known.count > 40 ? ", …" : "")")
        }
        try select(identifier)
        return try body()
    }

    /// Call with the lock held.
    private func initialize() throws {
        guard !initialized else { return }
        let rate = Self.withoutSoundServer {
            espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        }
        guard rate > 0 else {
            throw TextError(.phonemizer, "espeak-ng failed to initialise (returned \(rate)); is espeak-ng-data installed (ESPEAK_DATA_PATH)?")
        }
        espeak_SetSynthCallback { _, _, _ in 0 }  // audio is not wanted, only the phoneme trace
        initialized = true
    }

    /// Call with the lock held.
    private func select(_ voice: String) throws {
        guard currentVoice != voice else { return }
        // As the espeak-ng command does: a voice name first, else a voice for that language.
        var status = voice.withCString { espeak_SetVoiceByName($0) }
        if status != EE_OK {
            status = voice.withCString { language in
                var spec = espeak_VOICE()
                spec.languages = language
                return espeak_SetVoiceByProperties(&spec)
            }
        }
        guard status == EE_OK else {
            currentVoice = nil
            let known = Self.languages()
            let sample = known.prefix(40).joined(separator: ", ")
            throw TextError(.phonemizer, "espeak-ng has no voice or language \"\(voice)\"; installed (\(known.count)): \(sample)\(known.count > 40 ? ", …" : "")")
        }
        currentVoice = voice
    }

    /// The identifier of the first listed voice whose first language is `language` (call with the lock held).
    private static func firstVoice(language: String) -> String? {
        guard let list = espeak_ListVoices(nil) else { return nil }
        var k = 0
        while let voice = list[k] {
            k += 1
            guard let identifier = voice.pointee.identifier.map({ String(cString: $0) }), !identifier.hasPrefix("mb/"),
                  let languages = voice.pointee.languages.map(UnsafeRawPointer.init) else { continue }
            // `languages` starts with a priority byte, then the first language's NUL-terminated name.
            let first = String(cString: (languages + 1).assumingMemoryBound(to: CChar.self))
            if first == language { return identifier }
        }
        return nil
    }

    /// Language codes of the installed voices (call with the lock held).
    private static func languages() -> [String] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var codes: Set<String> = []
        var k = 0
        while let voice = list[k] {
            // `languages` is a list of (priority byte, NUL-terminated string), ended by a zero priority byte.
            if var p = voice.pointee.languages.map(UnsafeRawPointer.init) {
                while p.load(as: UInt8.self) != 0 {
                    p += 1
                    let code = String(cString: p.assumingMemoryBound(to: CChar.self))
                    codes.insert(code)
                    p += code.utf8.count + 1
                }
            }
            k += 1
        }
        return codes.sorted()
    }

    /// IPA lines (one per clause) exactly as `espeak-ng -q --ipa` prints them: the text is synthesised with the
    /// phoneme trace written to a memory stream (call inside `withVoice`).
    func traceIPA(_ text: String) throws -> String {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else {
            throw TextError(.phonemizer, "cannot open a memory stream for the espeak-ng phoneme trace")
        }
        espeak_SetPhonemeTrace(Int32(espeakPHONEMES_IPA), stream)
        let status = text.withCString { start in
            espeak_Synth(start, strlen(start) + 1, 0, POS_CHARACTER, 0,
                         UInt32(espeakCHARS_UTF8 | espeakPHONEMES | espeakENDPAUSE), nil, nil)
        }
        espeak_Synchronize()
        espeak_SetPhonemeTrace(0, nil)
        fclose(stream)
        defer { free(buffer) }
        guard status == EE_OK else {
            throw TextError(.phonemizer, "espeak-ng could not synthesise the text (status \(status.rawValue))")
        }
        return buffer.map { String(cString: $0) } ?? ""
    }

    /// The clauses espeak-ng makes of `text`, each as IPA (`espeak_TextToPhonemes` with `phonemeMode`; call
    /// inside `withVoice`).
    func clauses(_ text: String, phonemeMode: Int32 = Int32(espeakPHONEMES_IPA)) -> [String] {
        var out: [String] = []
        text.withCString { start in
            var pointer: UnsafeRawPointer? = UnsafeRawPointer(start)
            while pointer != nil {
                guard let phonemes = espeak_TextToPhonemes(&pointer, espeakCHARS_UTF8, phonemeMode) else { break }
                out.append(String(cString: phonemes))
            }
        }
        return out
    }
}
