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

    /// What `devsync sync` says on standard error afterwards, one line each (without the
    /// tool's name): the damaged changes, then the counts and what to do next. `quiet` keeps
    /// only what needs the user.
    public func summary(quiet: Bool) -> [String] {
        var lines = damaged.map {
            "the change to \($0) cannot be read from the store and was not sent; record it again with devsync install, or devsync discard it"
        }
        if remaining + heldElsewhere > 0 {
            var reason = lastError.map { " (\(Terminal.sanitizeField($0)))" } ?? ""
            if heldElsewhere > 0 && remaining == 0 { reason = " (another devsync sync is sending them)" }
            lines.append("\(synced) synced, \(rejected) rejected, \(remaining + heldElsewhere) kept for later\(reason); run devsync sync again")
        } else if rejected > 0 {
            lines.append("\(synced) synced, \(rejected) rejected by the server; see devsync pending")
        } else if !quiet {
            lines.append("\(synced) synced")
        }
        return lines
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
