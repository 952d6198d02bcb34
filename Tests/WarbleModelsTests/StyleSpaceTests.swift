import Foundation
import Testing
@testable import WarbleModels
import WarbleSpeech

/// The space a Kokoro voice search walks, on made-up style tables.
struct StyleSpaceTests {
    /// `voices` tables of 4 rows × 8, each row the voice's vector plus a small per-row wobble.
    static func tables(_ voices: Int) -> [(id: String, table: StoredTensor)] {
        (0..<voices).map { voice in
            let base = (0..<8).map { Float(sin(Double((voice * 8 + $0) * (voice * 8 + $0)) * 0.37)) }
            let values = (0..<4).flatMap { row in base.map { $0 + Float(row) * 1e-4 } }
            return ("v\(voice)", StoredTensor(shape: [4, 8], values: values)!)
        }
    }

    @Test func theStockVoicesAreFoundAgainAtTheirPoints() throws {
        let tables = Self.tables(5)
        let space = try StyleSpace(tables: tables)
        // Five voices span four directions.
        #expect(space.dimension == 4)
        for (index, (id, point)) in space.stock.enumerated() {
            #expect(id == tables[index].id)
            let rebuilt = space.table(at: point)
            let largest = zip(rebuilt.values, tables[index].table.values).map { abs($0 - $1) }.max()!
            #expect(largest < 1e-5)
        }
        // Unit, orthogonal directions; the mean table at the origin.
        for (i, a) in space.directions.enumerated() {
            for (j, b) in space.directions.enumerated() {
                let dot = zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }
                #expect(abs(dot - (i == j ? 1 : 0)) < 1e-9)
            }
        }
        #expect(space.table(at: [0, 0, 0, 0]).values == space.meanTable)
        // Points are in standard deviations: the voices' coordinates have variance 1 along each direction.
        for k in 0..<space.dimension {
            let values = space.stock.map { $0.point[k] }
            let variance = values.reduce(0) { $0 + $1 * $1 } / Double(values.count - 1)
            #expect(abs(variance - 1) < 1e-9)
        }
    }

    @Test func aPointMovesAStockVoicesOwnTableAndItsOwnPointGivesItBack() throws {
        let tables = Self.tables(5)
        let space = try StyleSpace(tables: tables)
        let base = (table: tables[2].table, point: space.stock[2].point)
        #expect(space.table(at: base.point, base: base) == tables[2].table)
        // A step along the first direction moves every row alike, by the step times its scale.
        var moved = base.point
        moved[0] += 1
        let table = space.table(at: moved, base: base)
        for row in 0..<4 {
            for column in 0..<8 {
                let expected = Double(tables[2].table.values[row * 8 + column]) + space.scales[0] * space.directions[0][column]
                #expect(abs(Double(table.values[row * 8 + column]) - expected) < 1e-5)
            }
        }
    }

    @Test func theDirectionsAreCappedAndOneVoiceIsNotASpace() throws {
        #expect(try StyleSpace(tables: Self.tables(6), maximumDimensions: 2).dimension == 2)
        #expect(throws: ModelError.self) { try StyleSpace(tables: Self.tables(1)) }
    }

    @Test func jacobiFindsTheEigenvaluesOfASymmetricMatrix() {
        let (values, vectors) = SymmetricEigen.decompose([[4, 1, 2], [1, 3, 0], [2, 0, 5]])
        let matrix: [[Double]] = [[4, 1, 2], [1, 3, 0], [2, 0, 5]]
        for k in 0..<3 {
            for i in 0..<3 {
                let product = (0..<3).reduce(0) { $0 + matrix[i][$1] * vectors[$1][k] }
                #expect(abs(product - values[k] * vectors[i][k]) < 1e-9)
            }
        }
        #expect(abs(values.reduce(0, +) - 12) < 1e-9)
    }
}
