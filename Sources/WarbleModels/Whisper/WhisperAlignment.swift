import WarbleSpeech
import Foundation
import ONNXRuntime

/// Where each text token of a window sits in its audio: CTranslate2's Whisper `align`, the step
/// faster-whisper's word timestamps rest on (reference: tools/whisper/word_alignment.py; the graphs
/// give the same path point for point, tools/whisper/check_alignment.py).
struct WhisperAlignment: Sendable, Hashable {
    /// A point of the DTW path: row `text` (the query predicting text token `text`, or end of text
    /// after the last one) at encoder position `time` (20 ms each).
    struct Point: Sendable, Hashable {
        var text: Int
        var time: Int
    }

    var path: [Point]
    /// The probability of each text token (softmax over the ids below end of text).
    var tokenProbabilities: [Double]

    static let medianFilterWidth = 7

    /// Standardises `weights` (`heads` blocks of `rows × columns`) over the rows of each column,
    /// epsilon 0, population variance (CTranslate2's LayerNorm over axis −2 without scale or shift).
    static func standardiseOverRows(_ weights: inout [Float], heads: Int, rows: Int, columns: Int) {
        weights.withUnsafeMutableBufferPointer { w in
            for h in 0..<heads {
                let base = h * rows * columns
                for c in 0..<columns {
                    var sum: Float = 0, squares: Float = 0
                    for r in 0..<rows {
                        let x = w[base + r * columns + c]
                        sum += x
                        squares += x * x
                    }
                    let mean = sum / Float(rows)
                    let variance = max(squares / Float(rows) - mean * mean, 0)
                    // A column the same in every row has nothing to say about time: 0, not NaN.
                    let scale: Float = variance > 0 ? 1 / variance.squareRoot() : 0
                    for r in 0..<rows { w[base + r * columns + c] = (w[base + r * columns + c] - mean) * scale }
                }
            }
        }
    }

    /// The median of each window of `width` values along `row` (mirrored at the edges without
    /// repeating the edge value, as CTranslate2's MedianFilter; a row shorter than width / 2 + 1 is
    /// copied).
    static func medianFiltered(_ row: ArraySlice<Float>, width: Int) -> [Float] {
        let depth = row.count, rank = width / 2
        let values = Array(row)
        guard depth > rank else { return values }
        var out = [Float](repeating: 0, count: depth)
        var window = [Float](repeating: 0, count: width)
        for j in 0..<depth {
            for k in -rank...rank {
                var read = abs(j + k)
                if read >= depth { read = 2 * depth - read - 2 }
                window[k + rank] = values[read]
            }
            window.sort()
            out[j] = window[rank]
        }
        return out
    }

    /// CTranslate2's `negative_dtw`: the cheapest monotonic path from the first to the last cell of
    /// −matrix (`rows × columns`), ties going along time first, then along text.
    static func negativeDTW(_ matrix: [Float], rows n: Int, columns m: Int) -> [Point] {
        guard n > 0, m > 0 else { return [] }
        let width = m + 1
        var cost = [Float](repeating: .infinity, count: (n + 1) * width)
        var trace = [UInt8](repeating: 2, count: (n + 1) * width)
        cost[0] = 0
        for i in 0...n { trace[i * width] = 1 }
        for j in 0...m { trace[j] = 2 }
        for j in 1...m {
            for i in 1...n {
                let c0 = cost[(i - 1) * width + j - 1], c1 = cost[(i - 1) * width + j], c2 = cost[i * width + j - 1]
                let (c, t): (Float, UInt8) = c0 < c1 && c0 < c2 ? (c0, 0) : (c1 < c0 && c1 < c2 ? (c1, 1) : (c2, 2))
                cost[i * width + j] = -matrix[(i - 1) * m + j - 1] + c
                trace[i * width + j] = t
            }
        }
        var path: [Point] = []
        var i = n, j = m
        while i > 0 || j > 0 {
            path.append(Point(text: i - 1, time: j - 1))
            switch trace[i * width + j] {
            case 0: i -= 1; j -= 1
            case 1: i -= 1
            default: j -= 1
            }
        }
        return path.reversed()
    }
}

extension WhisperModel {
    /// Whether this model's decoder gives the cross-attention scores word timestamps need (models
    /// converted before word timestamps do not) and the model names its alignment heads.
    public var alignsWords: Bool {
        !configuration.alignmentHeads.isEmpty
            && Set(configuration.alignmentHeads.map { "cross_scores_\($0.layer)" })
                .isSubset(of: decoder.outputs.map(\.name))
    }

    /// Throws a clear error when `alignsWords` is false.
    public func requireWordAlignment() throws {
        guard alignsWords else {
            throw ModelError(.badModel, "\(id) cannot give word timestamps: its decoder.onnx has no cross-attention "
                + "scores (converted by an older warble) or its config names no alignment heads; reinstall it with "
                + ModelPullHint.command(for: id))
        }
    }

    /// Aligns `text` (token ids below end of text) with the window `encoding` of `frames` feature
    /// frames: one decoder pass over `startSequence + [<|notimestamps|>] + text + [<|endoftext|>]`.
    func align(encoding: WhisperEncoding, startSequence: [Int], text: [Int], frames: Int,
               options: RunOptions? = nil) throws -> WhisperAlignment {
        guard !text.isEmpty else { return WhisperAlignment(path: [], tokenProbabilities: []) }
        try requireWordAlignment()
        let special = configuration.specialTokens
        let tokens = startSequence + [special.noTimestamps] + text + [special.eot]
        let layers = Array(Set(configuration.alignmentHeads.map(\.layer))).sorted()
        var state = try WhisperDecodingState(model: self, encoding: encoding, batch: 1, runOptions: options)
        let (logits, outputs) = try state.step([tokens], logitPositions: Array(startSequence.count..<(startSequence.count + text.count)),
                                               also: layers.map { "cross_scores_\($0)" })
        var probabilities: [Double] = []
        for (k, token) in text.enumerated() {
            let row = try logits.row(0, position: k)
            let top = row[..<special.eot].max() ?? 0
            var sum = 0.0
            for v in row[..<special.eot] { sum += exp(Double(v - top)) }
            probabilities.append(exp(Double(row[token] - top)) / sum)
        }

        let audioFrames = frames / 2  // the encoder's second convolution has stride 2
        guard audioFrames > 0 else { return WhisperAlignment(path: [], tokenProbabilities: probabilities) }
        let heads = configuration.alignmentHeads, rows = tokens.count
        var weights = [Float](repeating: 0, count: heads.count * rows * audioFrames)
        for (a, head) in heads.enumerated() {
            let scores = try outputs.tensor("cross_scores_\(head.layer)")
            guard scores.shape.count == 4, scores.shape[1] > head.head, scores.shape[2] == rows, scores.shape[3] >= audioFrames else {
                throw ModelError(.badModel, "\(id): cross_scores_\(head.layer) has shape \(scores.shape), expected "
                    + "[1, heads, \(rows), \(configuration.audioContext)]")
            }
            let stride = scores.shape[3]
            try scores.withUnsafeBufferPointer(of: Float.self) { s in
                weights.withUnsafeMutableBufferPointer { w in
                    for r in 0..<rows {
                        let from = (head.head * rows + r) * stride, to = (a * rows + r) * audioFrames
                        var top = -Float.infinity
                        for f in 0..<audioFrames { top = max(top, s[from + f]) }
                        var sum: Float = 0
                        for f in 0..<audioFrames {
                            let e = expf(s[from + f] - top)
                            w[to + f] = e
                            sum += e
                        }
                        for f in 0..<audioFrames { w[to + f] /= sum }
                    }
                }
            }
        }
        WhisperAlignment.standardiseOverRows(&weights, heads: heads.count, rows: rows, columns: audioFrames)
        // Rows of the queries predicting each text token, then end of text; the mean over heads.
        let first = startSequence.count, count = text.count + 1
        var matrix = [Float](repeating: 0, count: count * audioFrames)
        for a in 0..<heads.count {
            for r in 0..<count {
                let start = (a * rows + first + r) * audioFrames
                let filtered = WhisperAlignment.medianFiltered(weights[start..<(start + audioFrames)],
                                                               width: WhisperAlignment.medianFilterWidth)
                for f in 0..<audioFrames { matrix[r * audioFrames + f] += filtered[f] }
            }
        }
        let headCount = Float(heads.count)
        for i in matrix.indices { matrix[i] /= headCount }
        return WhisperAlignment(path: WhisperAlignment.negativeDTW(matrix, rows: count, columns: audioFrames),
                                tokenProbabilities: probabilities)
    }
}
