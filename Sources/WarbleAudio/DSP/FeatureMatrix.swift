/// A row-major matrix of Float features. Spectrograms and filterbank outputs use one row per frame
/// (time-major: `[frames, bins]`); `transposed()` gives the `[bins, frames]` layout many models take.
public struct FeatureMatrix: Sendable, Equatable {
    public private(set) var rows: Int
    public private(set) var columns: Int
    /// `rows · columns` values, row after row.
    public internal(set) var values: [Float]

    public init(rows: Int, columns: Int, values: [Float]) {
        precondition(rows >= 0 && columns >= 0 && values.count == rows * columns,
                     "FeatureMatrix: \(values.count) values do not fill \(rows)×\(columns)")
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    public init(rows: Int, columns: Int, repeating value: Float = 0) {
        self.init(rows: rows, columns: columns, values: [Float](repeating: value, count: rows * columns))
    }

    public subscript(row: Int, column: Int) -> Float {
        get { values[row * columns + column] }
        set { values[row * columns + column] = newValue }
    }

    /// One row's values.
    public func row(_ index: Int) -> ArraySlice<Float> { values[(index * columns)..<((index + 1) * columns)] }

    public func transposed() -> FeatureMatrix {
        var out = [Float](repeating: 0, count: values.count)
        values.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for r in 0..<rows {
                    for c in 0..<columns { dst[c * rows + r] = src[r * columns + c] }
                }
            }
        }
        return FeatureMatrix(rows: columns, columns: rows, values: out)
    }

    /// Removes the last row (no-op when empty), without copying the others.
    public mutating func dropLastRow() {
        guard rows > 0 else { return }
        values.removeLast(columns)
        rows -= 1
    }

    /// The first `count` rows, with rows of `value` appended when there are fewer.
    public func paddedOrTrimmed(rows count: Int, value: Float = 0) -> FeatureMatrix {
        precondition(count >= 0)
        if count <= rows { return FeatureMatrix(rows: count, columns: columns, values: Array(values[0..<(count * columns)])) }
        return FeatureMatrix(
            rows: count, columns: columns,
            values: values + [Float](repeating: value, count: (count - rows) * columns))
    }
}
