import FoundationEssentials
import ToolboxKit

/// A device as `--json` prints it.
public struct DeviceJSON: Encodable, Sendable {
    public let id: String
    public let type: String
    public let meterPointDescription: String
    public let installationDate: Date?
    public let syncState: String
    public let serverInstallationDate: Date?
    public let attempts: Int?
    public let lastError: String?
    public let recordedAt: Date?
    /// A pull found the server's value changed while the change waited: what it has now.
    public let conflict: Bool
    public let conflictServerInstallationDate: Date?

    public init(_ device: Device) {
        id = device.id
        type = device.type.rawValue
        meterPointDescription = device.meterPointDescription
        installationDate = device.installationDate
        syncState = device.syncState.rawValue
        serverInstallationDate = device.serverDate
        attempts = device.change?.attempts
        lastError = device.change?.lastError
        recordedAt = device.change?.recordedAt
        conflict = device.change?.serverChange != nil
        conflictServerInstallationDate = device.change?.serverChange?.installationDate
    }

    enum CodingKeys: String, CodingKey {
        case id, type, meterPointDescription, installationDate, syncState, serverInstallationDate, attempts, lastError, recordedAt
        case conflict, conflictServerInstallationDate
    }

    /// Nulls are written, not left out, so every object has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(meterPointDescription, forKey: .meterPointDescription)
        try container.encode(installationDate, forKey: .installationDate)
        try container.encode(syncState, forKey: .syncState)
        try container.encode(serverInstallationDate, forKey: .serverInstallationDate)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(recordedAt, forKey: .recordedAt)
        try container.encode(conflict, forKey: .conflict)
        try container.encode(conflictServerInstallationDate, forKey: .conflictServerInstallationDate)
    }
}
