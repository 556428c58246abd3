import ToolboxKit

/// The request that sends one change, `PATCH /devices/ID {"installationDate": …}`, built here
/// and only here: by `HTTPChangeSender` to send it, and for `devsync sync --dry-run` to show it.
/// The store knows changes, not the wire format.
public struct DevicePatch: Encodable, Sendable, Equatable {
    public let device: String
    public let method: String
    public let path: String
    /// The body: the full intended value, so that sending it twice is harmless.
    public let body: String

    public init(_ change: SyncQueue.Claim) {
        device = change.deviceID
        method = "PATCH"
        path = "/devices/" + ResourceID.pathSegment(change.deviceID)
        body = String(decoding: JSONCoding.encode(["installationDate": change.installationDate.map(StoredDate.format)]), as: UTF8.self)
    }

    /// The request line and body, as curl would send them (what `--dry-run` prints).
    public var line: String { "\(method) \(path) \(body)" }
}
