import CoreKit
import FoundationEssentials

/// The kind of meter: the three the app knows, or any other a newer server sends, which is
/// kept and shown as it is (and synced like any other).
public struct DeviceType: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let warmWater = DeviceType(rawValue: "warm_water")
    public static let coldWater = DeviceType(rawValue: "cold_water")
    public static let heating = DeviceType(rawValue: "heating")
    public static let known = [warmWater, coldWater, heating]

    /// As the app's list screen shows it; a type it does not know, as the server names it.
    public var displayName: String {
        switch self {
        case .warmWater: return "Warm water"
        case .coldWater: return "Cold water"
        case .heating: return "Heating"
        default: return rawValue
        }
    }
}

/// Whether a device's installation date has reached the server.
public enum SyncState: String, Sendable, Codable {
    /// `damaged`: a change whose stored date cannot be read; shown as such, never sent,
    /// never exported as a date (see `PendingChange.isDamaged`).
    case synced, pending, rejected, damaged
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

    /// What the installer recorded last: the pending change, else the server's value. Nil
    /// for a damaged change too: ask `isDamaged` before reading nil as "not installed".
    public var installationDate: Date? { change.map(\.installationDate) ?? serverDate }

    /// Whether the recorded date is damaged in the store (unreadable), not "not installed".
    public var isDamaged: Bool { change?.isDamaged ?? false }

    public var syncState: SyncState {
        if change?.isDamaged == true { return .damaged }
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

extension ServerDevice: IdentifiedRecord {
    public var recordIDs: KeyValuePairs<String, String> { ["id": id] }
}
