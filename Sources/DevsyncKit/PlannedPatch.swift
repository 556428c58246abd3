import ToolboxKit

/// One request `devsync sync --dry-run` shows instead of sending it.
public struct PlannedPatch: Encodable, Sendable, Equatable {
    public let device: String
    public let method: String
    public let path: String
    /// The body as sync would send it.
    public let body: String

    public init(_ change: DeviceStore.Claim) {
        device = change.deviceID
        method = "PATCH"
        path = change.path
        body = String(decoding: change.body, as: UTF8.self)
    }

    /// `PATCH /devices/ID {"installationDate":…}`: the request line and body, as curl would send them.
    public var line: String { "\(method) \(path) \(body)" }
}
