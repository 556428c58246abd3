import FoundationEssentials
import ToolboxKit

/// One entry of the store's history (`devsync log`): appended in the transaction of what it
/// records, never rewritten or removed, so it survives syncs and tells the story of a change.
public struct HistoryEvent: Sendable, Equatable, Encodable {
    public enum Kind: String, Sendable, Codable {
        /// A change recorded (install, uninstall, import): old is the value the device had here.
        case recorded
        /// A pending change dropped on purpose.
        case discarded
        /// The server took a change: old is the server's value before, new the value sent.
        case synced
        /// The server refused a change (4xx); detail has the attempt and the message.
        case rejected
        /// A try failed for a transient reason (5xx, timeout, no connection).
        case failed
        /// A pull found the server's value of a device changed: old and new server values.
        case pulled
        /// A pull found the server's value changed while a local change waited: old is the
        /// local value (which wins at sync), new the server's.
        case conflict
        /// The installer resolved a conflict: kept the local value (still pending), or took
        /// the server's (the local change discarded, which is logged as `discarded`).
        case resolved
    }

    public let seq: Int
    public let at: Date
    public let device: String
    public let event: Kind
    /// Dates as stored; nil: not installed (or, for some events, not applicable).
    public let oldValue: Date?
    public let newValue: Date?
    /// The command, or the attempt and the server's answer.
    public let detail: String
}
