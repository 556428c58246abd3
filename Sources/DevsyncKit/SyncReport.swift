import ToolboxKit

/// What a sync did.
public struct SyncReport: Sendable, Equatable, Encodable {
    public var synced = 0
    public var rejected = 0
    /// Changes still pending for transient reasons (offline, server failing).
    public var remaining = 0
    /// Pending changes another live devsync process is sending.
    public var heldElsewhere = 0
    /// The last transient error, for the message.
    public var lastError: String?
    /// Devices whose pending change could not be read from the store: kept, never sent.
    public var damaged: [String] = []

    public init() {}

    /// 0 all through; 75 some remain and a later try may succeed; 65 some were rejected or
    /// are damaged.
    public var exitStatus: ExitStatus {
        if remaining + heldElsewhere > 0 { return .tempFail }
        return rejected > 0 || !damaged.isEmpty ? .dataError : .success
    }

    /// Whether to refresh the device list after this sync: not when the server was plainly
    /// out of reach (changes remain and none got an answer).
    public var shouldPullAfterwards: Bool {
        remaining == 0 || synced + rejected > 0
    }

    /// `devsync sync --json`: the counts, damaged changes counted too.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(synced, forKey: .synced)
        try container.encode(rejected, forKey: .rejected)
        try container.encode(remaining, forKey: .remaining)
        try container.encode(heldElsewhere, forKey: .heldElsewhere)
        try container.encode(damaged.count, forKey: .damaged)
    }

    enum CodingKeys: String, CodingKey { case synced, rejected, remaining, heldElsewhere, damaged }
}
