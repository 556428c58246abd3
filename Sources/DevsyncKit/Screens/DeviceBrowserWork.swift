import FoundationEssentials
import ScreenKit
import Synchronization
import ToolboxKit

/// What the commands work with (the store, the server, the running sync's stop), and the
/// commands' work itself: the screen's state and its work are two types.
public struct DeviceBrowserWork: Sendable {
    public let store: DeviceStore
    public let client: APIClient
    public let jobs: Int
    public let retries: Int
    /// The stop of the sync running now, for Esc.
    let currentStop = StopSlot()

    public init(store: DeviceStore, client: APIClient, jobs: Int = 4, retries: Int) {
        self.store = store
        self.client = client
        self.jobs = jobs
        self.retries = retries
    }
}

extension DeviceBrowser {
    /// Runs `devsync ui` until the user quits; returns the exit status.
    public static func run(_ context: DeviceBrowserWork) async throws(ToolError) -> Int32 {
        let program = DeviceBrowser(server: context.client.server.description)
        return try await ScreenRunner.exitStatus(program, color: Terminal.colorEnabled()) { command, poster in
            await context.perform(command, poster: poster)
        }
    }
}

/// The commands' work, off the screen's thread.
extension DeviceBrowserWork {
    /// Devices read before the first frame with data: more than any terminal shows.
    static let firstRead = 500

    /// Does one command's work off the screen's thread and posts what came of it. A change
    /// is posted only once the store has it.
    func perform(_ command: DeviceBrowser.Command, poster: ScreenRunner.Poster<DeviceBrowser.Message>) async {
        switch command {
        case .load:
            // The first screenful is shown as soon as it is read, then the whole store (tig
            // shows the first commits the same way): 100,000 devices take a few hundred ms.
            let result = await Result.catching { () throws(ToolError) in
                try await store.perform { store throws(ToolError) in
                    // The history's end first: the devices read after it are at least as new.
                    let seq = try store.history.newestSeq()
                    let pending = try store.pending(), lastPull = try store.lastPull(), total = try store.deviceCount()
                    let devices = try store.devices(first: Self.firstRead) { first in
                        guard first.count < total else { return }
                        poster.post(.loaded(.success(DeviceBrowser.Snapshot(devices: first, pending: pending, lastPull: lastPull, total: total,
                                                                            historySeq: seq))))
                    }
                    return DeviceBrowser.Snapshot(devices: devices, pending: pending, lastPull: lastPull, historySeq: seq)
                }
            }
            if !Task.isCancelled { poster.post(.loaded(result)) }
        case .pull:
            let result = await Result.catching { () throws(ToolError) in try await DevicePull.run(client: client, store: store) }
            poster.post(.pulled(result))
        case .history(let id):
            let result = await Result.catching { () throws(ToolError) in
                try await store.perform { store throws(ToolError) in try store.history.events(device: id) }
            }
            poster.post(.history(id: id, result))
        case .record(let id, let date):
            let said = date.map { "\(id) installed \(DateDisplay.human($0)); pending sync" } ?? "\(id) not installed; pending sync"
            await change(id, poster: poster) { store throws(ToolError) in
                try store.record(id, installationDate: date)
                return said
            }
        case .discard(let id, let detail):
            await change(id, poster: poster) { store throws(ToolError) in
                let dropped = try store.discard(id, detail: detail)
                return dropped ? (detail == nil ? "discarded the change to \(id)" : "\(id): took the server's value")
                    : "no change to discard for \(id)"
            }
        case .keepLocal(let id):
            await change(id, poster: poster) { store throws(ToolError) in
                _ = try store.keepLocal(id)
                return "\(id): your date is kept and replaces the server's at the next sync"
            }
        case .sync:
            let stop = SyncStop()
            currentStop.stop.withLock { $0 = stop }
            var run = SyncRun(store: store, client: client, jobs: jobs, retries: retries)
            run.holdsConflicts = true
            run.stop = stop
            run.observe = { poster.post(.sync($0)) }
            let result = await Result.catching { () throws(ToolError) in
                try await run.run(untilDone: false, progress: { _, _ in }, warn: { _ in })
            }
            poster.post(.syncEnded(result))
        case .stopSync:
            currentStop.stop.withLock { $0 }.request()
        case .watchStore:
            await watch(poster: poster)
        case .catchUp(let seq):
            let result = await Result.catching { () throws(ToolError) in
                try await store.perform { store throws(ToolError) in try store.history.changes(since: seq) }
            }
            if !Task.isCancelled { poster.post(.caughtUp(result)) }
        }
    }

    /// Makes one change to device `id` and posts what to say with the device and the pending
    /// changes as the store has them after it: the screen patches itself with them.
    func change(_ id: String, poster: ScreenRunner.Poster<DeviceBrowser.Message>,
                       _ work: @escaping @Sendable (DeviceStore) throws(ToolError) -> String) async {
        let result = await Result.catching { () throws(ToolError) in
            try await store.perform { store throws(ToolError) in
                let said = try work(store)
                return DeviceBrowser.Change(said: said, device: try store.device(id), pending: try store.pending())
            }
        }
        poster.post(.changed(id: id, result))
    }

    /// Every second, asks SQLite whether another process committed to the store since the
    /// last look (`PRAGMA data_version`: one small read, no file scan), and says so.
    func watch(poster: ScreenRunner.Poster<DeviceBrowser.Message>) async {
        var seen = try? await store.perform { store throws(ToolError) in try store.dataVersion() }
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(1)) } catch { return }
            let version = try? await store.perform { store throws(ToolError) in try store.dataVersion() }
            if let version, version != seen {
                seen = version
                poster.post(.storeChanged)
            }
        }
    }
}

/// Where the running sync's stop is kept between the `.sync` and `.stopSync` commands.
final class StopSlot: Sendable {
    let stop = Mutex(SyncStop())
}

extension Result where Failure == ToolError {
    /// The result of async throwing work, as a value to post.
    static func catching(_ body: () async throws(ToolError) -> Success) async -> Self {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}

/// What `devsync ui` asks for: the store and the server.
public enum DeviceBrowserCommand: ScreenCommand, Equatable {
    /// Every device from the store, with the last pull's time.
    case load
    case pull
    case history(id: String)
    case record(id: String, Date?)
    case discard(id: String, detail: String?)
    case keepLocal(id: String)
    case sync
    /// Esc while syncing: nothing more starts; what is in flight finishes.
    case stopSync
    /// Watches the store for changes other processes commit (`devsync install` in
    /// another terminal), for as long as the screen is open.
    case watchStore
    /// What the store's history says changed after entry `since`, to patch in.
    case catchUp(since: Int)

    public var policy: CommandPolicy {
        switch self {
        case .load: .latest("load")
        case .pull: .latest("pull")
        case .history: .latest("history")
        case .record, .discard, .keepLocal: .serial("store")
        case .sync: .latest("sync")
        case .stopSync: .serial("stop")
        case .watchStore: .latest("watch")
        case .catchUp: .latest("catchUp")
        }
    }
}

/// The store as `devsync ui`'s screens show it.
public struct StoreSnapshot: Sendable, Equatable {
    public var devices: [Device]
    /// Each device's filter text (built off the screen's thread).
    public var texts: [String]
    /// The devices with a change, in the order sync sends them.
    public var pending: [Device]
    public var lastPull: Date?
    /// The devices in the store: more than `devices` while the rest is still being read.
    public var total: Int
    /// The store's newest history entry, read before the devices.
    public var historySeq: Int
    public var isComplete: Bool { devices.count >= total }

    public init(devices: [Device], pending: [Device], lastPull: Date?, total: Int? = nil, historySeq: Int = 0) {
        self.devices = devices
        texts = devices.map(DeviceLine.filterText)
        self.pending = pending
        self.lastPull = lastPull
        self.total = total ?? devices.count
        self.historySeq = historySeq
    }
}

/// What arrives for `devsync ui` from the work its commands started.
public enum DeviceBrowserMessage: Sendable, Equatable {
    case loaded(Result<StoreSnapshot, ToolError>)
    case pulled(Result<DevicePull.Outcome, ToolError>)
    case history(id: String, Result<[HistoryEvent], ToolError>)
    /// A change is in the store (what to say, and the device and pending changes as the
    /// store now has them), or was refused.
    case changed(id: String, Result<StoreChange, ToolError>)
    case sync(SyncEvent)
    case syncEnded(Result<SyncReport, ToolError>)
    /// Another process committed to the store.
    case storeChanged
    case caughtUp(Result<DeviceHistory.ChangesSince, ToolError>)
}

/// A change this screen made, as the store has it after the commit: enough to patch the
/// screen without reading every device again.
public struct StoreChange: Sendable, Equatable {
    public var said: String
    /// The device now; nil if it is gone from the store.
    public var device: Device?
    public var pending: [Device]

    public init(said: String, device: Device?, pending: [Device]) {
        self.said = said
        self.device = device
        self.pending = pending
    }
}
