/// A dense row-major matrix of `Float`, used for features and network activations.
@_spi(Engine) public struct FeatureMatrix: Sendable, Hashable {
    public var rows: Int
    public var columns: Int
    /// `rows * columns` values, row after row.
    public var values: [Float]

    public init(rows: Int, columns: Int, values: [Float]? = nil) {
        precondition(rows >= 0 && columns >= 0)
        self.rows = rows
        self.columns = columns
        self.values = values ?? [Float](repeating: 0, count: rows * columns)
        precondition(self.values.count == rows * columns, "FeatureMatrix: \(self.values.count) values for \(rows)x\(columns)")
    }

    /// The value at `row`, `column`.
    public subscript(row: Int, column: Int) -> Float {
        get { values[row * columns + column] }
        set { values[row * columns + column] = newValue }
    }
}
