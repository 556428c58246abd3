import ToolboxKit

/// `devsync export` as CSV: one line a device, readable by `devsync import`.
public enum DeviceExport {
    public static let header = ["id", "installationDate", "state", "type", "meterPointDescription"]

    /// A device's fields; server text is kept as it is (CSV quoting carries any character)
    /// but for control characters, which are removed.
    public static func fields(_ device: Device) -> [String] {
        [device.id, device.installationDate.map(ISO8601.format) ?? "", device.syncState.rawValue,
         device.type.rawValue, device.meterPointDescription].map(Terminal.sanitize)
    }
}
