import ToolboxKit

/// `devsync pull`: the server's device list into the store's server copy. Reads are
/// retried by the client on 5xx; local changes are never touched.
public enum DevicePull {
    @discardableResult
    public static func run(client: APIClient, store: DeviceStore) async throws(ToolError) -> Int {
        let devices = try await client.getJSON("/devices", as: [ServerDevice].self)
        try store.replaceServerCopy(devices)
        return devices.count
    }
}
