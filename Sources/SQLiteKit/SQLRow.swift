/// One row a statement returned: its values in column order, and the columns' names.
public struct SQLRow: Sendable {
    /// Shared by every row of one statement.
    public let names: [String]
    public let values: [SQLValue]

    /// The value of the column called `name` (the first, if two share it).
    public func column(_ name: String) -> SQLValue? {
        names.firstIndex(of: name).map { values[$0] }
    }

    /// The first column's value.
    public var first: SQLValue? { values.first }
}
