import FoundationEssentials
import ToolboxKit

/// `devsync pull`: the server's device list into the store's server copy. Reads are
/// retried by the client on 5xx; local changes are never overwritten. A device the server
/// changed while a local change waits is reported through `warn`, one line each.
public enum DevicePull {
    /// What a pull brought: the devices listed, and how many of them now conflict with a
    /// waiting local change.
    public struct Outcome: Sendable, Equatable {
        public let devices: Int
        public let conflicts: Int
    }

    @discardableResult
    public static func run(client: APIClient, store: DeviceStore, warn: (String) -> Void = { _ in }) async throws(ToolError) -> Outcome {
        let list = try await client.getList("/devices", as: ServerDevice.self)
        for skipped in list.skipped { warn("skipped device \(skipped)") }
        let records = list.records
        let conflicts = try await store.perform { store throws(ToolError) in try store.replaceServerCopy(records) }
        for conflict in conflicts { warn(describe(conflict)) }
        return Outcome(devices: list.records.count, conflicts: conflicts.count)
    }

    static func describe(_ conflict: DeviceStore.Conflict) -> String {
        func value(_ date: Date?) -> String { date.map(ISO8601.format) ?? "not installed" }
        return "conflict on \(conflict.deviceID): the server now has \(value(conflict.serverDate)); "
            + "your pending change (\(value(conflict.localDate))) will replace it when synced"
    }
}
