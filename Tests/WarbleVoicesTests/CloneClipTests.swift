import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import WarbleTestSupport

/// The clip checks of `warble voice add`, with the installed Silero VAD and speech from the installed
/// Piper voice: each bad clip gets a message that says what to record; a good clip in another rate,
/// channel count and format is read and cut to its speech.
@Suite(.needs(model: "piper-en_US-joe-medium"), .needs(model: "silero-vad"), .needsRuntime, .serialized) struct CloneClipTests {
    /// About 7 s of the installed Piper voice.
    static func speech() async throws -> AudioBuffer {
        let piper = try InstalledVoices.sharedPiper.get()
        let text = "The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore, every single morning."
        let samples = try await collect(StreamingSynthesizer(renderer: piper).synthesize(SynthesisRequest(text: text))).flatMap(\.samples)
        return AudioBuffer(mono: samples, sampleRate: piper.sampleRate)
    }

    func detector() async throws -> any VoiceActivityDetector {
        _ = try InstalledVoices.model("silero-vad")
        return try await Engine(phonemizer: EspeakPhonemizer()).voiceActivityDetector()
    }

    func wav(_ buffer: AudioBuffer) throws -> Data { try SoundFile.encode(buffer, format: .wav16) }

    func message(_ data: Data, seconds: ClosedRange<Double> = 3...30) async throws -> String {
        let detector = try await detector()
        do {
            _ = try CloneClip(data: data, name: "clip.wav", seconds: seconds, detector: detector)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test func aGoodClipIsCutToItsSpeechInAnyRateChannelsAndFormat() async throws {
        let speech = try await Self.speech()
        #expect(speech.duration > 5)
        // 1 s of silence on each side, at 48 kHz stereo, as FLAC.
        let silence = [Float](repeating: 0, count: speech.sampleRate)
        let padded = AudioBuffer(mono: silence + speech.samples + silence, sampleRate: speech.sampleRate)
        let stereo48k = try AudioBuffer(channels: [padded.samples, padded.samples], sampleRate: speech.sampleRate).resampled(to: 48000)
        let data = try SoundFile.encode(stereo48k, format: .flac16)
        let clip = try CloneClip(data: data, name: "clip.flac", seconds: 3...30, detector: try await detector())
        #expect(clip.speech.sampleRate == 48000 && clip.speech.channelCount == 1)
        #expect(abs(clip.fileSeconds - padded.duration) < 0.01)
        // The silence is gone (within the VAD's windows and its 0.1 s margin), the speech is kept.
        #expect(clip.speech.duration > speech.duration - 0.3 && clip.speech.duration < speech.duration + 0.5)
        #expect(clip.sha256 == SHA256.hex(data) && !clip.shortened)
        #expect(clip.level > -30 && clip.level < 0)
        // A longer clip than the family takes is cut to its longest.
        let cut = try CloneClip(data: data, name: "clip.flac", seconds: 1...3, detector: try await detector())
        #expect(cut.shortened && abs(cut.speech.duration - 3) < 0.01)
    }

    @Test func silenceIsRefused() async throws {
        let answer = try await message(try wav(AudioBuffer(mono: [Float](repeating: 0, count: 16000 * 4), sampleRate: 16000)))
        #expect(answer.contains("no speech was heard in clip.wav") && answer.contains("record 5–15 s"))
    }

    @Test func noiseIsRefusedAsNoSpeech() async throws {
        var random = SystemRandomNumberGenerator()
        let noise = (0..<(16000 * 4)).map { _ in Float.random(in: -0.05...0.05, using: &random) }
        let answer = try await message(try wav(AudioBuffer(mono: noise, sampleRate: 16000)))
        #expect(answer.contains("no speech was heard"), "\(answer)")
    }

    @Test func aClippedClipIsRefused() async throws {
        let speech = try await Self.speech()
        let loud = speech.samples.map { max(-1, min(1, $0 * 20)) }
        let answer = try await message(try wav(AudioBuffer(mono: loud, sampleRate: speech.sampleRate)))
        #expect(answer.contains("clip.wav is clipped") && answer.contains("input gain lower"))
    }

    @Test func aQuietClipIsRefused() async throws {
        let speech = try await Self.speech()
        let quiet = speech.samples.map { $0 * 0.004 }
        let answer = try await message(try wav(AudioBuffer(mono: quiet, sampleRate: speech.sampleRate)))
        #expect(answer.contains("too quiet") || answer.contains("no speech was heard"), "\(answer)")
        let faint = speech.samples.map { $0 * 0.02 }
        let faintAnswer = try await message(try wav(AudioBuffer(mono: faint, sampleRate: speech.sampleRate)))
        #expect(faintAnswer.contains("clip.wav is too quiet") && faintAnswer.contains("closer to the microphone"), "\(faintAnswer)")
    }

    @Test func tooLittleSpeechIsRefusedWithTheLengthTheFamilyNeeds() async throws {
        let speech = try await Self.speech()
        let short = speech.slice(seconds: 0, 1.5)
        let answer = try await message(try wav(short), seconds: 3...30)
        #expect(answer.contains("has only") && answer.contains("needs at least 3.0 s"), "\(answer)")
    }

    @Test func aFileThatIsNoAudioIsRefused() async throws {
        let answer = try await message(Data("this is not audio".utf8))
        #expect(answer.contains("clip.wav cannot be read as audio"), "\(answer)")
        let empty = try await message(Data())
        #expect(empty.contains("cannot be read as audio"), "\(empty)")
    }
}
