/// A region of the screen: where a widget draws.
public struct Rect: Sendable, Equatable {
    public var row: Int
    public var column: Int
    public var rows: Int
    public var columns: Int

    public init(row: Int, column: Int, rows: Int, columns: Int) {
        self.row = row
        self.column = column
        self.rows = max(rows, 0)
        self.columns = max(columns, 0)
    }

    /// Whether a 0-based cell lies inside.
    public func contains(row: Int, column: Int) -> Bool {
        row >= self.row && row < self.row + rows && column >= self.column && column < self.column + columns
    }

    /// Inside a frame drawn on its edge.
    public var inner: Rect { Rect(row: row + 1, column: column + 1, rows: rows - 2, columns: columns - 2) }
}
