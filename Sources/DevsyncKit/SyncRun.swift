import ToolboxKit

/// `devsync sync` and the sync screen: one round of the engine, or rounds until
/// done with `untilDone`, then the device list pulled again when anything reached the server,
/// as the app does. A failed pull afterwards is a warning: the changes are through.
public struct SyncRun: Sendable {
    public let store: DeviceStore
    public let client: APIClient
    public let jobs: Int
    public let retries: Int
    /// The sync screen's choices: leave conflicts to the installer, stop on Esc, and see
    /// every change's state (see `SyncEngine`).
    public var holdsConflicts = false
    public var stop = SyncStop()
    public var observe: @Sendable (SyncEvent) -> Void = { _ in }

    public init(store: DeviceStore, client: APIClient, jobs: Int, retries: Int) {
        self.store = store
        self.client = client
        self.jobs = jobs
        self.retries = retries
    }

    /// `progress` gets (done, total) after each change; `onWait` each pause between rounds;
    /// `warn` the pull's warnings, one line each.
    public func run(untilDone: Bool,
                    progress: @escaping @Sendable (Int, Int) -> Void,
                    onWait: @Sendable (SyncReport, Double) -> Void = { _, _ in },
                    warn: (String) -> Void) async throws(ToolError) -> SyncReport {
        let engine = SyncEngine(store: store, sender: HTTPChangeSender(client: client), jobs: jobs, retries: retries,
                                holdsConflicts: holdsConflicts, stop: stop, observe: observe)
        let report = untilDone
            ? try await engine.runUntilDone(progress: progress, onWait: onWait)
            : try await engine.runOnce(progress: progress)
        if report.shouldPullAfterwards {
            do throws(ToolError) {
                try await DevicePull.run(client: client, store: store, warn: warn)
            } catch {
                warn("pull after sync failed: \(error.message)")
            }
        }
        return report
    }
}
