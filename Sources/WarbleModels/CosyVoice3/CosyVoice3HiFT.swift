import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech

/// CosyVoice 3's vocoder, HiFT (seed-models.md §1.7): mel → f0 → a sine source at 24 kHz → its STFT
/// (n_fft 16, hop 4, periodic Hann, centred, reflect) → the decoder's magnitude (clipped at 100) and
/// phase → inverse STFT → 480 samples per mel frame, clamped to ±0.99.
///
/// Streaming (`finalize` false) gives what the reference's causal generator gives without
/// finalising: the f0 predictor's last 3 frames are lookahead only, the decoder's last 4
/// (`conv_pre_look_right`), and 480 samples more are held back, so a run over M frames hands out the
/// first 480·(M − 8) samples, which a longer run repeats exactly (the graphs look at most 4 frames
/// ahead). The graphs are run in their finalising form over all M frames and the audio is cut.
struct CosyVoice3HiFT: Sendable {
    static let samplesPerFrame = 480
    static let f0Lookahead = 3
    static let decoderLookahead = 4
    static let magnitudeLimit: Float = 100
    static let audioLimit: Float = 0.99

    let f0Predictor: ModelGraph
    let sourceGenerator: ModelGraph
    let decoder: ModelGraph
    let stft = STFT(fftLength: 16, hopLength: 4, window: .hann(periodic: true), center: true, paddingMode: .reflect)

    init(files: CosyVoice3Files, options: SessionOptions) throws {
        f0Predictor = try ModelGraph(files.f0Predictor, model: "CosyVoice 3", role: "HiFT f0 predictor", inputs: [.float("mel")], outputs: ["f0"],
                                          options: options)
        sourceGenerator = try ModelGraph(files.sourceGenerator, model: "CosyVoice 3", role: "HiFT source generator", inputs: [.float("f0")],
                                              outputs: ["source"], options: options)
        decoder = try ModelGraph(files.hiftDecoder, model: "CosyVoice 3", role: "HiFT decoder", inputs: [.float("mel"), .float("source_stft")],
                                      outputs: ["magnitude", "phase"], options: options)
    }

    /// Mel frames a non-final run holds back.
    static let heldBackFrames = f0Lookahead + decoderLookahead + 1

    /// Samples a non-final run over `frames` mel frames gives.
    static func streamedSamples(frames: Int) -> Int { max(0, frames - heldBackFrames) * samplesPerFrame }

    /// Audio of `mel` `[80, frames]` (channel-major): 480 · frames samples when `finalize`, else
    /// `streamedSamples(frames:)`.
    func audio(mel: [Float], frames: Int, finalize: Bool, options: RunOptions?) throws -> [Float] {
        guard frames > 0 else { return [] }
        let channels = CosyVoice3Flow.channels
        let f0Out = try f0Predictor.run(["mel": try f0Predictor.floats(mel, shape: [1, channels, frames], for: "mel")], options: options)
        let f0 = try ModelTensors.read(f0Out, "f0").values
        guard f0.count == frames else { throw ModelError(.badModel, "the f0 predictor gave \(f0.count) values for \(frames) frames") }
        let sourceOut = try sourceGenerator.run(["f0": try sourceGenerator.floats(f0, shape: [1, 1, frames], for: "f0")], options: options)
        let source = try ModelTensors.read(sourceOut, "source").values
        let spectrum = stft(source)
        let stftFrames = spectrum.frames, bins = spectrum.bins
        var sourceSTFT = [Float](repeating: 0, count: 2 * bins * stftFrames)
        for f in 0..<stftFrames {
            for b in 0..<bins {
                sourceSTFT[b * stftFrames + f] = spectrum.real[f * bins + b]
                sourceSTFT[(bins + b) * stftFrames + f] = spectrum.imaginary[f * bins + b]
            }
        }
        let decoded = try decoder.run([
            "mel": try decoder.floats(mel, shape: [1, channels, frames], for: "mel"),
            "source_stft": try decoder.floats(sourceSTFT, shape: [1, 2 * bins, stftFrames], for: "source_stft"),
        ], options: options)
        let (magnitude, shape) = try ModelTensors.read(decoded, "magnitude")
        let phase = try ModelTensors.read(decoded, "phase").values
        guard shape.count == 3, shape[1] == bins, magnitude.count == phase.count, magnitude.count == bins * shape[2] else {
            throw ModelError(.badModel, "the HiFT decoder gave a magnitude of shape \(shape); expected [1, \(bins), \(stftFrames)]")
        }
        let count = shape[2]
        var real = [Float](repeating: 0, count: count * bins)
        var imaginary = [Float](repeating: 0, count: count * bins)
        for b in 0..<bins {
            for f in 0..<count {
                let m = min(magnitude[b * count + f], Self.magnitudeLimit)
                let p = phase[b * count + f]
                real[f * bins + b] = m * cos(p)
                imaginary[f * bins + b] = m * sin(p)
            }
        }
        var audio = stft.inverse(Spectrogram(frames: count, bins: bins, real: real, imaginary: imaginary))
        if !finalize { audio.removeLast(max(0, audio.count - Self.streamedSamples(frames: frames))) }
        for i in audio.indices { audio[i] = min(max(audio[i], -Self.audioLimit), Self.audioLimit) }
        return audio
    }
}
