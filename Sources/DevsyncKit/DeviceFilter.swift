/// The filters of `devsync list`: each one given narrows the list; none given keeps all.
public struct DeviceFilter: Sendable, Equatable {
    public var installed = false
    public var notInstalled = false
    /// Only devices with a change not yet through (pending or rejected).
    public var pending = false
    /// Only devices of this type (any type the server names).
    public var type: String?

    public init(installed: Bool = false, notInstalled: Bool = false, pending: Bool = false, type: String? = nil) {
        self.installed = installed
        self.notInstalled = notInstalled
        self.pending = pending
        self.type = type
    }

    public func matches(_ device: Device) -> Bool {
        (!installed || device.installationDate != nil) && (!notInstalled || device.installationDate == nil)
            && (!pending || device.syncState != .synced) && (type == nil || device.type.rawValue == type)
    }
}
