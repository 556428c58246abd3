import FoundationEssentials
import CoreKit

/// A recorded installation date that the server has not confirmed yet. One per device:
/// later changes to the same device replace it (they collapse into the latest).
public struct PendingChange: Sendable, Equatable {
    public enum State: String, Sendable, Codable {
        /// Waiting to be sent, or being sent.
        case pending
        /// The server refused it with a 4xx; kept until the installer changes it again or discards it.
        case rejected
    }

    public let deviceID: String
    /// The intended value; nil means "not installed".
    public let installationDate: Date?
    /// Grows with every local edit, so a sync that sent an older revision cannot drop a newer one.
    public let revision: Int
    public let state: State
    public let attempts: Int
    public let lastError: String?
    public let recordedAt: Date
    /// The process sending it now, if any.
    public let claimedBy: Int32?
    /// Set when a pull found the server's value changed while this change waited.
    public let serverChange: ServerChange?
    /// The stored date could not be read (text that is no date, a number, a blob): the
    /// change is shown as damaged and never sent; `installationDate` is then nil.
    public let isDamaged: Bool

    /// The server's value as a pull found it, changed under this change.
    public struct ServerChange: Sendable, Equatable {
        public let installationDate: Date?
    }

    public init(deviceID: String, installationDate: Date?, revision: Int, state: State, attempts: Int,
                lastError: String?, recordedAt: Date, claimedBy: Int32?, serverChange: ServerChange? = nil, isDamaged: Bool = false) {
        self.isDamaged = isDamaged
        self.deviceID = deviceID
        self.installationDate = installationDate
        self.revision = revision
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.recordedAt = recordedAt
        self.claimedBy = claimedBy
        self.serverChange = serverChange
    }
}

/// Dates as the store and the server write them: ISO 8601 UTC to the second.
enum StoredDate {
    static func format(_ date: Date) -> String { ISO8601.format(date) }
    static func parse(_ text: String?) -> Date? { text.flatMap(ISO8601.parse) }
}
