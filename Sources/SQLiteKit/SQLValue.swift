/// One value SQLite stores or binds: its five storage classes. What every store of the
/// toolbox reads and writes, so that no target outside SQLiteKit sees SQLite's C types.
public enum SQLValue: Sendable, Equatable {
    case integer(Int)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// A bind for an optional text: NULL when absent.
    public static func optional(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }

    /// The integer, as SQLite would convert a column to one for an INTEGER reader: text that
    /// is a whole number counts, anything else is nil.
    public var integer: Int? {
        switch self {
        case .integer(let value): return value
        case .real(let value): return Int(exactly: value)
        case .text(let text): return Int(text)
        case .blob, .null: return nil
        }
    }

    /// The text, or a number's decimal form; nil for NULL and BLOBs.
    public var string: String? {
        switch self {
        case .text(let text): return text
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .blob, .null: return nil
        }
    }

    public var isNull: Bool { self == .null }
}
