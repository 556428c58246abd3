import ToolboxKit

/// `devsync pull`: the server's device list into the store's server copy. Reads are
/// retried by the client on 5xx; local changes are never touched.
public enum DevicePull {
    @discardableResult
    public static func run(client: APIClient, store: DeviceStore, warn: (String) -> Void = { _ in }) async throws(ToolError) -> Int {
        let list = try await client.getList("/devices", as: ServerDevice.self)
        for skipped in list.skipped { warn("skipped device \(skipped)") }
        try store.replaceServerCopy(list.records)
        return list.records.count
    }
}
