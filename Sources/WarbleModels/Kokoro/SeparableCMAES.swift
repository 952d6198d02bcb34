import Foundation

/// The separable CMA-ES of Ros and Hansen (2008): the covariance matrix adaptation evolution strategy
/// with a diagonal covariance, a derivative-free maximiser for a few dozen dimensions that learns a
/// step size per coordinate. Ask for a generation of points, tell their scores, repeat.
///
/// The state is `Codable` (a search is resumed from it) and sampling is driven by a seed and the
/// generation number, so a run is reproducible and a resumed run goes on as the first would have.
public struct SeparableCMAES: Sendable, Codable, Equatable {
    public let dimension: Int
    public let populationSize: Int
    public let seed: UInt64
    public private(set) var mean: [Double]
    public private(set) var sigma: Double
    public private(set) var variances: [Double]
    public private(set) var generation = 0
    private var evolutionPath: [Double]
    private var conjugatePath: [Double]

    /// A search around `mean` with step `sigma`; `populationSize` defaults to 4 + ⌊3 ln n⌋.
    public init(mean: [Double], sigma: Double, seed: UInt64, populationSize: Int? = nil) {
        precondition(!mean.isEmpty && sigma > 0, "CMA-ES needs at least one dimension and a positive step")
        dimension = mean.count
        self.populationSize = max(4, populationSize ?? 4 + Int(3 * log(Double(mean.count))))
        self.seed = seed
        self.mean = mean
        self.sigma = sigma
        variances = Array(repeating: 1, count: mean.count)
        evolutionPath = Array(repeating: 0, count: mean.count)
        conjugatePath = Array(repeating: 0, count: mean.count)
    }

    private var parents: Int { populationSize / 2 }

    private var weights: [Double] {
        let raw = (1...parents).map { log(Double(parents) + 0.5) - log(Double($0)) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    /// This generation's points (the same for the same seed and generation).
    public func ask() -> [[Double]] {
        var random = Gaussian(seed: seed &+ UInt64(generation) &* 0x9E37_79B9_7F4A_7C15)
        return (0..<populationSize).map { _ in
            (0..<dimension).map { mean[$0] + sigma * variances[$0].squareRoot() * random.next() }
        }
    }

    /// Updates the distribution from the points `ask` gave and their scores (higher is better).
    public mutating func tell(_ points: [[Double]], scores: [Double]) {
        precondition(points.count == scores.count && points.count >= parents, "tell needs a score for every point")
        let n = Double(dimension)
        let weights = self.weights
        let effective = 1 / weights.reduce(0) { $0 + $1 * $1 }
        let sigmaRate = (effective + 2) / (n + effective + 5)
        let damping = 1 + 2 * max(0, ((effective - 1) / (n + 1)).squareRoot() - 1) + sigmaRate
        let pathRate = (4 + effective / n) / (n + 4 + 2 * effective / n)
        let separable = (n + 2) / 3
        let rankOne = min(1, separable * 2 / ((n + 1.3) * (n + 1.3) + effective))
        let rankMu = min(1 - rankOne, separable * 2 * (effective - 2 + 1 / effective) / ((n + 2) * (n + 2) + effective))
        let expectedNorm = n.squareRoot() * (1 - 1 / (4 * n) + 1 / (21 * n * n))

        let ranked = scores.indices.sorted { scores[$0] > scores[$1] }.prefix(parents)
        let steps = ranked.map { index in (0..<dimension).map { (points[index][$0] - mean[$0]) / sigma } }
        var step = Array(repeating: 0.0, count: dimension)
        for (weight, y) in zip(weights, steps) {
            for i in 0..<dimension { step[i] += weight * y[i] }
        }
        for i in 0..<dimension { mean[i] += sigma * step[i] }

        let sigmaScale = (sigmaRate * (2 - sigmaRate) * effective).squareRoot()
        for i in 0..<dimension {
            evolutionPath[i] = (1 - sigmaRate) * evolutionPath[i] + sigmaScale * step[i] / variances[i].squareRoot()
        }
        let pathNorm = evolutionPath.reduce(0) { $0 + $1 * $1 }.squareRoot()
        let fade = (1 - pow(1 - sigmaRate, 2 * Double(generation + 1))).squareRoot()
        let stalled = pathNorm / fade < (1.4 + 2 / (n + 1)) * expectedNorm
        let pathScale = (pathRate * (2 - pathRate) * effective).squareRoot()
        for i in 0..<dimension {
            conjugatePath[i] = (1 - pathRate) * conjugatePath[i] + (stalled ? pathScale * step[i] : 0)
        }
        let correction = stalled ? 0 : pathRate * (2 - pathRate)
        for i in 0..<dimension {
            let rankMuUpdate = zip(weights, steps).reduce(0) { $0 + $1.0 * $1.1[i] * $1.1[i] }
            variances[i] = (1 - rankOne - rankMu) * variances[i]
                + rankOne * (conjugatePath[i] * conjugatePath[i] + correction * variances[i])
                + rankMu * rankMuUpdate
        }
        sigma *= exp((sigmaRate / damping) * (pathNorm / expectedNorm - 1))
        generation += 1
    }
}

/// Standard normal numbers from SplitMix64 by the Box–Muller transform.
struct Gaussian {
    private var uniform: SplitMix64
    private var spare: Double?

    init(seed: UInt64) { uniform = SplitMix64(seed: seed) }

    mutating func next() -> Double {
        if let spare {
            self.spare = nil
            return spare
        }
        let radius = (-2 * log(1 - uniform.uniform())).squareRoot()
        let angle = 2 * Double.pi * uniform.uniform()
        spare = radius * sin(angle)
        return radius * cos(angle)
    }
}
