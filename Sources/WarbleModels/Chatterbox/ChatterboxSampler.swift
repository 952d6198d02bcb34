import Foundation

/// How Chatterbox Turbo chooses a speech token from a step's
/// logits (tools/chatterbox/README.md):
/// greedy with the repetition penalty over every token written so far (the model card's ONNX loop, the
/// default), or the PyTorch reference's sampling (`t3.py inference_turbo`) with its processors in *its*
/// order — temperature, top-k (ties with the k-th kept), top-p, and only then the penalty — which is
/// not the order of Warble's `TokenSampler`.
public struct ChatterboxSampler: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        case greedy
        case sampling(temperature: Float, topK: Int, topP: Double)

        /// The PyTorch reference's settings.
        public static let reference = Mode.sampling(temperature: 0.8, topK: 1000, topP: 0.95)
    }

    public var mode: Mode
    public var penalty: Float

    public init(mode: Mode = .greedy, penalty: Float = 1.2) {
        self.mode = mode
        self.penalty = penalty
    }

    /// The token for `logits` given the penalised ids; `uniform` gives the draw when sampling.
    public func choose(_ logits: [Float], penalised: Set<Int>, uniform: () -> Double) -> Int {
        switch mode {
        case .greedy:
            var scores = logits
            TokenSampler.penalise(&scores, tokens: penalised, penalty: penalty)
            return LogitMath.argmax(scores)
        case .sampling(let temperature, let topK, let topP):
            return sample(logits, penalised: penalised, u: uniform(), temperature: temperature, topK: topK, topP: topP)
        }
    }

    func sample(_ logits: [Float], penalised: Set<Int>, u: Double, temperature: Float, topK: Int, topP: Double) -> Int {
        let scores = temperature == 1 ? logits : logits.map { $0 / temperature }
        // Top-k: every score at least the k-th largest (ties with it kept, as Hugging Face does). Plain
        // loops over the buffer: this runs once a token over the whole vocabulary (194k for NeuTTS Nano).
        var kept: [Int] = []
        let kth = scores.count > topK ? LogitMath.kthLargest(scores, topK) : -Float.infinity
        scores.withUnsafeBufferPointer { row in
            kept.reserveCapacity(min(row.count, topK + 8))
            var i = 0
            while i < row.count {
                if row[i] >= kth { kept.append(i) }
                i += 1
            }
        }
        kept.sort { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        // Top-p: keep a token while the mass of the more likely ones is below top_p.
        let p = Self.softmax(kept.map { scores[$0] })
        var nucleus: [Int] = topP >= 1 ? kept : []
        var before = 0.0
        for (token, probability) in zip(kept, p) where topP < 1 && before < topP {
            nucleus.append(token)
            before += probability
        }
        // Then the penalty on the survivors, a softmax over them, and the inverse CDF of u over them
        // ordered by probability (ties: the lower id first).
        var final = nucleus.map { scores[$0] }
        for (i, token) in nucleus.enumerated() where penalised.contains(token) && final[i].isFinite {
            final[i] = final[i] < 0 ? final[i] * penalty : final[i] / penalty
        }
        let q = Self.softmax(final)
        let order = nucleus.indices.sorted { q[$0] != q[$1] ? q[$0] > q[$1] : nucleus[$0] < nucleus[$1] }
        var left = u
        for i in order {
            left -= q[i]
            if left < 0 { return nucleus[i] }
        }
        return nucleus[order.last ?? 0]
    }

    /// Softmax in double.
    static func softmax(_ values: [Float]) -> [Double] {
        guard let top = values.max() else { return [] }
        let e = values.map { Foundation.exp(Double($0) - Double(top)) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}
