import DevsyncKit
import FoundationEssentials
import ToolboxKit

/// A device as `--json` prints it.
struct DeviceJSON: Encodable {
    let id: String
    let type: String
    let meterPointDescription: String
    let installationDate: Date?
    let syncState: String
    let serverInstallationDate: Date?
    let attempts: Int?
    let lastError: String?
    let recordedAt: Date?

    init(_ device: Device) {
        id = device.id
        type = device.type.rawValue
        meterPointDescription = device.meterPointDescription
        installationDate = device.installationDate
        syncState = device.syncState.rawValue
        serverInstallationDate = device.serverDate
        attempts = device.change?.attempts
        lastError = device.change?.lastError
        recordedAt = device.change?.recordedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, type, meterPointDescription, installationDate, syncState, serverInstallationDate, attempts, lastError, recordedAt
    }

    /// Nulls are written, not left out, so every object has the same keys.
    func encode(to encoder: any Encoder) throws {
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
    }

    static func print(_ devices: [Device]) {
        StandardOutput.print(String(decoding: JSONCoding.encode(devices.map(DeviceJSON.init), pretty: true), as: UTF8.self) + "\n")
    }
}

extension Device {
    /// The date for a table cell or TSV field: local time on a terminal, ISO 8601 UTC piped,
    /// `-` or empty when not installed.
    func dateField(_ date: Date?, _ mode: OutputMode) -> String {
        guard let date else { return mode == .table ? "-" : "" }
        return DateDisplay.format(date, for: mode)
    }

    func typeField(_ mode: OutputMode) -> String { mode == .table ? type.displayName : type.rawValue }
}
