/// Low frame rate stacking ("Lower Frame Rate Neural Network Acoustic Models", Pundak & Sainath 2016), as
/// FunASR's front ends and sherpa-onnx compute it: output frame i stacks `window` input frames centred on
/// input frame i·`shift`. The first input frame is repeated (window − 1) / 2 times on the left and the last
/// one past the end, so there are ceil(T / shift) outputs, each `window` × the input's columns wide.
public struct LowFrameRate: Sendable, Equatable {
    public let window: Int
    public let shift: Int

    public init(window: Int, shift: Int) {
        precondition(window > 0 && shift > 0, "LowFrameRate: window and shift must be positive")
        self.window = window
        self.shift = shift
    }

    /// The number of output frames for `frames` input frames.
    public func outputCount(frames: Int) -> Int { frames <= 0 ? 0 : 1 + (frames - 1) / shift }

    public func callAsFunction(_ input: FeatureMatrix) -> FeatureMatrix {
        let frames = input.rows, width = input.columns
        let outputs = outputCount(frames: frames)
        var out = FeatureMatrix(rows: outputs, columns: width * window)
        guard outputs > 0 else { return out }
        let left = (window - 1) / 2
        input.values.withUnsafeBufferPointer { src in
            out.values.withUnsafeMutableBufferPointer { dst in
                var to = 0
                for i in 0..<outputs {
                    for j in 0..<window {
                        // Index into the input padded with `left` copies of frame 0, clamped at the last frame.
                        let source = min(max(i * shift + j - left, 0), frames - 1)
                        let from = source * width
                        for c in 0..<width { dst[to + c] = src[from + c] }
                        to += width
                    }
                }
            }
        }
        return out
    }
}
