import Foundation
import WarbleSpeech

/// The space a Kokoro voice search walks: the mean of the stock voices' style tables plus a
/// combination of their principal directions. A point `z` is measured in standard deviations of the
/// stock voices along each direction, so `z = 0` is the average voice and every stock voice lies
/// within a few units of it. The rows of one voice are nearly identical (99.998 %), so the
/// directions are those of the voices' mean rows, and a point moves every row of the mean table alike.
struct StyleSpace: Sendable {
    let rows: Int
    let width: Int
    /// The mean table, row by row.
    let meanTable: [Float]
    /// Unit directions in the 256-d row space, largest variance first.
    let directions: [[Double]]
    /// The stock voices' standard deviation along each direction.
    let scales: [Double]
    /// Each stock voice's coordinates, by voice id.
    let stock: [(id: String, point: [Double])]

    var dimension: Int { directions.count }

    /// The space of `tables` (at least two voices), with at most `maximumDimensions` principal directions
    /// and `extraDirections` more, random ones orthogonal to them (seeded by `seed`): a few voices span
    /// only a few directions, and a voice unlike all of them may lie outside those. An extra direction's
    /// unit is the smallest principal direction's.
    init(tables: [(id: String, table: StoredTensor)], maximumDimensions: Int = 24, extraDirections: Int = 0,
         seed: UInt64 = 1) throws {
        guard tables.count >= 2, let first = tables.first?.table, first.shape.count == 2 else {
            throw ModelError(.badModel, "a voice search needs at least two stock voices; this model has \(tables.count)")
        }
        let (rows, width) = (first.shape[0], first.shape[1])
        guard tables.allSatisfy({ $0.table.shape == first.shape }) else {
            throw ModelError(.badModel, "the stock voices' style tables differ in shape")
        }
        self.rows = rows
        self.width = width
        let count = Double(tables.count)
        var meanTable = [Float](repeating: 0, count: rows * width)
        for (_, table) in tables {
            for index in meanTable.indices { meanTable[index] += table.values[index] / Float(count) }
        }
        self.meanTable = meanTable
        let rowMeans: [[Double]] = tables.map { _, table in
            (0..<width).map { column in (0..<rows).reduce(0.0) { $0 + Double(table.values[$1 * width + column]) } / Double(rows) }
        }
        let centre = (0..<width).map { column in rowMeans.reduce(0.0) { $0 + $1[column] } / count }
        let centred = rowMeans.map { row in zip(row, centre).map { $0 - $1 } }
        // Principal directions from the voices' Gram matrix (n × n, n = voices ≪ 256).
        let gram = centred.map { a in centred.map { b in zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } } }
        let (values, vectors) = SymmetricEigen.decompose(gram)
        let largest = values.max() ?? 0
        var directions: [[Double]] = []
        var scales: [Double] = []
        for k in values.indices.sorted(by: { values[$0] > values[$1] })
        where values[k] > largest * 1e-9 && directions.count < maximumDimensions {
            var direction = [Double](repeating: 0, count: width)
            for (voice, row) in centred.enumerated() {
                for column in 0..<width { direction[column] += vectors[voice][k] * row[column] }
            }
            let norm = direction.reduce(0) { $0 + $1 * $1 }.squareRoot()
            directions.append(direction.map { $0 / norm })
            scales.append((values[k] / max(1, count - 1)).squareRoot())
        }
        let principal = directions.count
        var random = Gaussian(seed: seed)
        while directions.count < principal + extraDirections, directions.count < width {
            var direction = (0..<width).map { _ in random.next() }
            for other in directions {
                let dot = zip(direction, other).reduce(0) { $0 + $1.0 * $1.1 }
                for column in 0..<width { direction[column] -= dot * other[column] }
            }
            let norm = direction.reduce(0) { $0 + $1 * $1 }.squareRoot()
            guard norm > 1e-6 else { continue }
            directions.append(direction.map { $0 / norm })
            scales.append(scales.last ?? 1)
        }
        self.directions = directions
        self.scales = scales
        stock = zip(tables, centred).map { voice, row in
            (voice.id, zip(directions, scales).map { direction, scale in
                zip(direction, row).reduce(0) { $0 + $1.0 * $1.1 } / scale
            })
        }
    }

    /// The style table at `point`: `base` (a stock voice's own table, at `basePoint`) moved by the
    /// difference, so that its rows keep their own shape; without a base, the mean table moved from the origin.
    func table(at point: [Double], base: (table: StoredTensor, point: [Double])? = nil) -> StoredTensor {
        guard let base else { return table(at: point, from: meanTable, origin: Array(repeating: 0, count: point.count)) }
        return table(at: point, from: base.table.values, origin: base.point)
    }

    private func table(at point: [Double], from start: [Float], origin: [Double]) -> StoredTensor {
        var offset = [Float](repeating: 0, count: width)
        for (k, direction) in directions.enumerated() {
            let amount = (point[k] - origin[k]) * scales[k]
            for column in 0..<width { offset[column] += Float(amount * direction[column]) }
        }
        var values = start
        for row in 0..<rows {
            for column in 0..<width { values[row * width + column] += offset[column] }
        }
        return StoredTensor(shape: [rows, width], values: values)!
    }
}

/// Eigenvalues and eigenvectors of a small symmetric matrix by cyclic Jacobi rotations.
enum SymmetricEigen {
    /// `(values, vectors)`: `vectors[i][k]` is component i of the eigenvector of `values[k]`.
    static func decompose(_ matrix: [[Double]]) -> ([Double], [[Double]]) {
        let n = matrix.count
        var a = matrix
        var v = (0..<n).map { i in (0..<n).map { i == $0 ? 1.0 : 0.0 } }
        for _ in 0..<100 {
            var off = 0.0
            for i in 0..<n { for j in (i + 1)..<max(i + 1, n) { off += a[i][j] * a[i][j] } }
            if off < 1e-22 { break }
            for p in 0..<n {
                for q in (p + 1)..<max(p + 1, n) where abs(a[p][q]) > 1e-300 {
                    let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot()
                    let s = t * c
                    for k in 0..<n {
                        let (akp, akq) = (a[k][p], a[k][q])
                        a[k][p] = c * akp - s * akq
                        a[k][q] = s * akp + c * akq
                    }
                    for k in 0..<n {
                        let (apk, aqk) = (a[p][k], a[q][k])
                        a[p][k] = c * apk - s * aqk
                        a[q][k] = s * apk + c * aqk
                    }
                    for k in 0..<n {
                        let (vkp, vkq) = (v[k][p], v[k][q])
                        v[k][p] = c * vkp - s * vkq
                        v[k][q] = s * vkp + c * vkq
                    }
                }
            }
        }
        return ((0..<n).map { a[$0][$0] }, v)
    }
}
