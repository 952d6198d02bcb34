import Foundation
import Testing
@testable import WarbleModels

/// The search strategy on functions whose optimum is known.
struct SeparableCMAESTests {
    /// −Σ wᵢ (xᵢ − cᵢ)²: an ellipsoid with weights 1…1000 and its top at `centre`.
    static func ellipsoid(_ x: [Double]) -> Double {
        let centre = [0.7, -1.2, 2.0, 0.3, -0.5, 1.1]
        return -x.indices.reduce(0) { $0 + pow(1000, Double($1) / 5) * (x[$1] - centre[$1]) * (x[$1] - centre[$1]) }
    }

    func run(_ strategy: inout SeparableCMAES, generations: Int) {
        for _ in 0..<generations {
            let points = strategy.ask()
            strategy.tell(points, scores: points.map(Self.ellipsoid))
        }
    }

    @Test func findsTheTopOfAnIllScaledEllipsoid() {
        var strategy = SeparableCMAES(mean: Array(repeating: 0, count: 6), sigma: 0.5, seed: 7)
        #expect(strategy.populationSize == 9)
        run(&strategy, generations: 400)
        // From −4.5 at the start to within 1e-8 of the top (0); each coordinate within 1e-4.
        #expect(Self.ellipsoid(Array(repeating: 0, count: 6)) < -4)
        #expect(Self.ellipsoid(strategy.mean) > -1e-8)
        // The per-coordinate variances learnt the scaling: the heaviest axis gets the smallest steps.
        #expect(strategy.variances[5] < strategy.variances[0] / 100)
    }

    @Test func theSameSeedGivesTheSameRunAndASavedStateGoesOnAsTheFirstWould() throws {
        var a = SeparableCMAES(mean: [1, 1, 1], sigma: 0.3, seed: 42)
        var b = SeparableCMAES(mean: [1, 1, 1], sigma: 0.3, seed: 42)
        run(&a, generations: 10)
        run(&b, generations: 5)
        var resumed = try JSONDecoder().decode(SeparableCMAES.self, from: JSONEncoder().encode(b))
        #expect(resumed == b)
        run(&resumed, generations: 5)
        #expect(resumed.mean == a.mean && resumed.sigma == a.sigma && resumed.generation == 10)
        let other = SeparableCMAES(mean: [1, 1, 1], sigma: 0.3, seed: 43)
        #expect(other.ask() != SeparableCMAES(mean: [1, 1, 1], sigma: 0.3, seed: 42).ask())
    }

    @Test func gaussianNumbersHaveMeanZeroAndVarianceOne() {
        var random = Gaussian(seed: 3)
        let values = (0..<100_000).map { _ in random.next() }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        #expect(abs(mean) < 0.01 && abs(variance - 1) < 0.02)
    }
}
