/// Triangular mel filters over the bins of a onesided spectrum, matching `librosa.filters.mel`.
/// Stored sparsely (each filter's non-zero span), so applying it costs O(total filter width), not
/// O(mels × bins).
public struct MelFilterbank: Sendable, Equatable {
    public enum Normalization: Sendable, Equatable {
        case none
        /// Each triangle divided by its width in Hz / 2 (equal area; librosa `norm="slaney"`).
        case slaney
    }

    public let melCount: Int
    public let binCount: Int
    /// First spectrum bin of each filter.
    let starts: [Int]
    /// Each filter's weights from its first bin on (flattened; `offsets[m]..<offsets[m+1]`).
    let weights: [Float]
    let offsets: [Int]

    /// librosa-compatible filters for an `fftLength`-point spectrum.
    public init(
        sampleRate: Int, fftLength: Int, melCount: Int, minFrequency: Double = 0, maxFrequency: Double? = nil,
        scale: MelScale = .slaney, normalization: Normalization = .slaney
    ) {
        precondition(melCount >= 1 && fftLength >= 2 && sampleRate > 0)
        let fMax = maxFrequency ?? Double(sampleRate) / 2
        let bins = fftLength / 2 + 1
        let binFrequencies = (0..<bins).map { Double($0) * Double(sampleRate) / Double(fftLength) }
        let lowMel = scale.mel(fromHz: minFrequency), highMel = scale.mel(fromHz: fMax)
        let edges = (0..<(melCount + 2)).map {
            scale.hz(fromMel: lowMel + (highMel - lowMel) * Double($0) / Double(melCount + 1))
        }
        var dense = [[Double]]()
        for m in 0..<melCount {
            let lower = edges[m], center = edges[m + 1], upper = edges[m + 2]
            var row = binFrequencies.map { f in max(0, min((f - lower) / (center - lower), (upper - f) / (upper - center))) }
            if normalization == .slaney {
                let norm = 2 / (upper - lower)
                for i in row.indices { row[i] *= norm }
            }
            dense.append(row)
        }
        self.init(dense: dense.map { $0.map(Float.init) }, binCount: bins)
    }

    /// Filters from a dense `[melCount][binCount]` table (e.g. Kaldi's bins).
    init(dense: [[Float]], binCount: Int) {
        var starts = [Int](), weights = [Float](), offsets = [0]
        for row in dense {
            precondition(row.count == binCount)
            let first = row.firstIndex { $0 != 0 } ?? 0
            let last = row.lastIndex { $0 != 0 } ?? -1
            starts.append(first)
            if last >= first { weights.append(contentsOf: row[first...last]) }
            offsets.append(weights.count)
        }
        self.melCount = dense.count
        self.binCount = binCount
        self.starts = starts
        self.weights = weights
        self.offsets = offsets
    }

    /// The filters as a dense `[melCount, binCount]` matrix (librosa's layout).
    public func matrix() -> FeatureMatrix {
        var out = FeatureMatrix(rows: melCount, columns: binCount)
        for m in 0..<melCount {
            for (j, w) in weights[offsets[m]..<offsets[m + 1]].enumerated() { out[m, starts[m] + j] = w }
        }
        return out
    }

    /// Filter energies of one spectrum row.
    @inline(__always)
    func apply(_ spectrum: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        weights.withUnsafeBufferPointer { w in
            for m in 0..<melCount {
                let s = spectrum + starts[m]
                var sum: Float = 0
                var j = 0
                for i in offsets[m]..<offsets[m + 1] {
                    sum += w[i] * s[j]
                    j += 1
                }
                out[m] = sum
            }
        }
    }

    /// Applies the filters to every row of a `[frames, binCount]` spectrogram → `[frames, melCount]`.
    public func apply(to spectrogram: FeatureMatrix) -> FeatureMatrix {
        precondition(spectrogram.columns == binCount, "MelFilterbank: expected \(binCount) bins, got \(spectrogram.columns)")
        var out = FeatureMatrix(rows: spectrogram.rows, columns: melCount)
        spectrogram.values.withUnsafeBufferPointer { src in
            out.values.withUnsafeMutableBufferPointer { dst in
                for r in 0..<spectrogram.rows {
                    apply(src.baseAddress! + r * binCount, into: dst.baseAddress! + r * melCount)
                }
            }
        }
        return out
    }
}
