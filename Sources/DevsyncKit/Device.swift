import FoundationEssentials

/// The three kinds of meter an installer fits.
public enum DeviceType: String, Sendable, Codable, CaseIterable {
    case warmWater = "warm_water"
    case coldWater = "cold_water"
    case heating

    /// As the app's list screen shows it.
    public var displayName: String {
        switch self {
        case .warmWater: return "Warm water"
        case .coldWater: return "Cold water"
        case .heating: return "Heating"
        }
    }
}

/// Whether a device's installation date has reached the server.
public enum SyncState: String, Sendable, Codable {
    case synced, pending, rejected
}

/// A device as the tool shows it: the server's copy as last pulled, and the local change
/// still to be sent, if any.
public struct Device: Sendable, Equatable {
    public let id: String
    public let type: DeviceType
    public let meterPointDescription: String
    /// The installation date the server had at the last pull or sync.
    public let serverDate: Date?
    public let change: PendingChange?

    public init(id: String, type: DeviceType, meterPointDescription: String, serverDate: Date?, change: PendingChange?) {
        self.id = id
        self.type = type
        self.meterPointDescription = meterPointDescription
        self.serverDate = serverDate
        self.change = change
    }

    /// What the installer recorded last: the pending change, else the server's value.
    public var installationDate: Date? { change.map(\.installationDate) ?? serverDate }

    public var syncState: SyncState {
        switch change?.state {
        case nil: return .synced
        case .pending?: return .pending
        case .rejected?: return .rejected
        }
    }
}

/// A device as `GET /devices` sends it.
public struct ServerDevice: Sendable, Equatable, Decodable {
    public let id: String
    public let installationDate: Date?
    public let meterPointDescription: String
    public let type: DeviceType

    public init(id: String, installationDate: Date?, meterPointDescription: String, type: DeviceType) {
        self.id = id
        self.installationDate = installationDate
        self.meterPointDescription = meterPointDescription
        self.type = type
    }
}
