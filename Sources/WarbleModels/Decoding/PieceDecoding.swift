import WarbleAudio
import WarbleSpeech

/// Audio longer than one pass decodes, cut at its quietest 100 ms near each maximum (`QuietCuts`), each piece decoded
/// into one segment: the loop of the recognisers that decode a whole file in one pass (as sherpa-onnx does).
public enum PieceDecoding {
    /// Decodes `samples` (at `rate` Hz) a piece of at most `maximumSeconds` at a time and hands each segment to
    /// `yield`. `decode` gets a piece's samples and its start and end in seconds from the start of `samples`. A
    /// cancelled token ends it with `CancellationError` (also when ONNX Runtime's run was stopped by it).
    public static func segments(_ samples: [Float], rate: Int, maximumSeconds: Double, cancel: CancellationToken,
                                yield: (TranscriptSegment) -> Void,
                                decode: (_ samples: [Float], _ start: Double, _ end: Double) throws -> TranscriptSegment) throws {
        let maximum = Int(maximumSeconds * Double(rate))
        do {
            for piece in QuietCuts.pieces(samples, maximum: maximum, search: min(maximum, 10 * rate), window: rate / 10) {
                try cancel.check()
                yield(try decode(Array(samples[piece]), Double(piece.lowerBound) / Double(rate),
                                 Double(piece.upperBound) / Double(rate)))
            }
        } catch where cancel.isCancelled {
            throw CancellationError()
        }
    }
}
