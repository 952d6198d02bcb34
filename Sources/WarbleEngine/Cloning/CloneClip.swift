import Foundation
import WarbleAudio
import WarbleSpeech

/// A clip to clone a voice from, read and checked: decoded from any format libsndfile reads (any
/// rate, any channel count), mixed to mono, cut to its speech by the voice activity detector, and
/// refused with a message that says what to record when it is silent, clipped, too quiet, or has
/// too little speech for the family.
public struct CloneClip: Sendable {
    /// The longest file read, in seconds.
    public static let maximumFileSeconds = 300.0
    /// Full scale, for the clipping check.
    static let fullScale: Float = 0.999
    /// More of the clip's samples at full scale than this is clipping.
    static let clippedFraction = 0.001
    /// Speech quieter than this (RMS, dBFS) is too quiet to clone from.
    static let quietestLevel = -40.0

    /// SHA-256 of the file's bytes (hex).
    public let sha256: String
    /// The speech, mono, at the file's rate (from the first speech to the last, at most `seconds.upperBound`).
    public let speech: AudioBuffer
    /// The whole file's length.
    public let fileSeconds: Double
    /// The RMS level of the speech, dBFS.
    public let level: Double
    /// Whether the speech was cut to the family's longest clip.
    public let shortened: Bool

    /// Reads and checks `data`; `seconds`: the length of speech the family takes; `detector`: Silero VAD (cancelling
    /// `cancel` stops it between windows).
    public init(data: Data, name: String, seconds range: ClosedRange<Double>, detector: any VoiceActivityDetector,
                cancel: CancellationToken = CancellationToken()) throws {
        let decoded: DecodedAudio
        do {
            decoded = try SoundFile.load(data: data, limits: DecodeLimits(maximumSeconds: Self.maximumFileSeconds))
        } catch {
            throw ModelError(.badInput, "\(name) cannot be read as audio: \(error)")
        }
        guard !decoded.isTruncated else { throw ModelError(.badInput, "\(name): \(decoded.truncationDescription)") }
        let mono = decoded.buffer.mixedToMono()
        sha256 = SHA256.hex(data)
        fileSeconds = mono.duration
        guard mono.frameCount > 0 else { throw ModelError(.badInput, "\(name) holds no audio: record 5–15 s of one person speaking") }

        let atFullScale = mono.samples.reduce(0) { $0 + (abs($1) >= Self.fullScale ? 1 : 0) }
        let clipped = Double(atFullScale) / Double(mono.frameCount)
        guard clipped <= Self.clippedFraction else {
            throw ModelError(.badInput, "\(name) is clipped: \(Self.percent(clipped)) of its samples are at full scale, "
                + "which distorts the voice; record again with the input gain lower")
        }

        let ranges = try Self.speechRanges(mono, detector: detector, cancel: cancel)
        guard let first = ranges.first, let last = ranges.last else {
            throw ModelError(.badInput, "no speech was heard in \(name) (\(Self.seconds(fileSeconds)) s): record 5–15 s "
                + "of one person speaking, in a quiet room")
        }
        let spoken = ranges.reduce(0.0) { $0 + Double($1.end - $1.start) } / Double(mono.sampleRate)
        guard spoken >= range.lowerBound else {
            throw ModelError(.badInput, "\(name) has only \(Self.seconds(spoken)) s of speech; this voice needs at least "
                + "\(Self.seconds(range.lowerBound)) s: record a few sentences (5–15 s) of the same person")
        }
        var speech = mono.slice(frames: first.start..<last.end)
        shortened = speech.duration > range.upperBound
        if shortened { speech = speech.slice(frames: 0..<Int(range.upperBound * Double(mono.sampleRate))) }
        self.speech = speech

        let power = speech.samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, speech.frameCount))
        level = 10 * log10(max(power, 1e-20))
        guard level >= Self.quietestLevel else {
            throw ModelError(.badInput, "\(name) is too quiet (speech at \(Int(level.rounded())) dBFS, the least is "
                + "\(Int(Self.quietestLevel)) dBFS): record closer to the microphone or with the input gain higher")
        }
    }

    /// The stretches of speech, in frames of `mono` (short pauses bridged, 0.1 s of margin).
    static func speechRanges(_ mono: AudioBuffer, detector: any VoiceActivityDetector,
                             cancel: CancellationToken = CancellationToken()) throws -> [SpeechRange] {
        let rate = detector.sampleRate
        let resampled = mono.sampleRate == rate ? mono : try mono.resampled(to: rate)
        let probabilities = try detector.probabilities(resampled.samples, padLast: true, cancel: cancel)
        var options = SpeechDetectionOptions()
        options.minSilenceDuration = 0.3
        options.minSpeechDuration = 0.25
        options.speechPad = 0.1
        let scale = Double(mono.sampleRate) / Double(rate)
        return SpeechDetection.ranges(probabilities: probabilities, sampleCount: resampled.frameCount, options: options,
                                      window: detector.window, sampleRate: rate).map {
            SpeechRange(start: min(mono.frameCount, Int(Double($0.start) * scale)), end: min(mono.frameCount, Int(Double($0.end) * scale)))
        }.filter { $0.end > $0.start }
    }

    static func seconds(_ value: Double) -> String { String(format: "%.1f", value) }
    static func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
}
