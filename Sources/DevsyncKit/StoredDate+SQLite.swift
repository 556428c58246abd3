import FoundationEssentials
import SQLiteKit
import ToolboxKit

extension StoredDate {
    /// A stored installation date: NULL is "not installed"; text that parses is the date;
    /// anything else (text that does not parse, a BLOB, a number) is damage, never read as
    /// "not installed", which would be sent as such and lose the change.
    static func read(_ value: SQLValue?) -> (date: Date?, damaged: Bool) {
        switch value {
        case nil, .null?: return (nil, false)
        case .text(let text)?:
            let date = ISO8601.parse(text)
            return (date, date == nil)
        default: return (nil, true)
        }
    }
}
