import FoundationEssentials
import ScreenKit
import ToolboxKit

/// `devsync ui`: the installation app's three screens. Devices lists every device from the
/// store (`/` filters, `t` cycles the type); Enter opens a `DeviceDetail`; Tab switches to
/// Sync, a `SyncBoard` of the pending changes with its big Sync button (`S` anywhere). The
/// store is read, never waited on the network for: a pull runs in the background at start
/// and on `R`. Pure state: keys and arriving data change it, `Command`s ask for the store
/// and the server.
public struct DeviceBrowser: ScreenProgram {
    /// What the screen asks its work for, what the work answers, and the store as the
    /// screens show it (`DeviceBrowserWork`).
    public typealias Command = DeviceBrowserCommand
    public typealias Message = DeviceBrowserMessage
    public typealias Snapshot = StoreSnapshot
    public typealias Change = StoreChange

    public enum Tab: Sendable, Equatable { case devices, sync }

    public internal(set) var tab = Tab.devices
    /// The Devices tab: the store's devices, their filters, the list.
    var deviceTab = DevicesTab()
    /// The Sync tab: the pending changes, the sync's progress, the button.
    var sync = SyncTab()
    public internal(set) var detail: DeviceDetail?
    public internal(set) var chrome: Chrome
    public internal(set) var outcome: Int32?
    var loading = true
    var pulling = false
    var lastPull: Date?
    /// The store's history as far as the screen shows it: another process's changes are
    /// those after it.
    var historySeq = 0
    /// A catch-up asked for and not yet answered, and whether a change of this screen's own
    /// landed meanwhile: the answer may have been read before it, and would patch it back.
    var catchingUp: (asked: Bool, overtaken: Bool) = (false, false)
    /// q pressed once while a sync runs: a second q quits.
    var quitArmed = false
    /// Now, for the date field (tests fix it).
    let now: @Sendable () -> Date

    public init(server: String, now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        chrome = Chrome(server: server)
    }

    public var status: StatusLine { chrome.status }
    public var notice: String? { chrome.notice }
    public var showsHelp: Bool { chrome.help != nil }

    public var isBusy: Bool { loading || pulling || sync.board.running }

    public mutating func start() -> [Command] {
        pulling = true
        return [.load, .pull, .watchStore]
    }

    public mutating func tick() {
        chrome.advance()
        sync.board.tick()
    }

    public mutating func resized(rows: Int, columns: Int) -> [Command] {
        chrome.resize(rows: rows, columns: columns)
        layOut()
        return []
    }

    /// The devices' list under its column header; the sync board's changes above the button;
    /// the detail one row in.
    mutating func layOut() {
        let body = chrome.body
        deviceTab.layout(body)
        sync.layout(body)
        detail?.layout(Rect(row: body.row + 1, column: 1, rows: body.rows - 1, columns: body.columns - 2))
    }

    /// Counted when the store is read, not at every frame.
    var deviceTotal = 0
    var pendingCount = 0
    var conflictCount = 0

    /// Shows what the store holds: the devices, the pending changes, the counts.
    mutating func show(_ snapshot: Snapshot) {
        deviceTab.show(snapshot.devices, texts: snapshot.texts)
        lastPull = snapshot.lastPull
        deviceTotal = snapshot.total
        historySeq = snapshot.historySeq
        pendingCount = snapshot.pending.count
        conflictCount = snapshot.pending.count { $0.change?.serverChange != nil }
        sync.show(pending: snapshot.pending)
        if let open = detail?.device.id, let device = deviceTab.device(open) { detail?.update(device) }
    }

    /// Devices changed (by this screen, or by another process as the history names them),
    /// and the pending changes after them, patched in without reading the other devices
    /// again. False when one cannot be patched: the store is read whole then.
    mutating func patch(_ devices: [Device], pending: [Device]) -> Bool {
        for device in devices {
            guard deviceTab.patch(device) else { return false }
            if detail?.device.id.utf8.elementsEqual(device.id.utf8) == true { detail?.update(device) }
        }
        pendingCount = pending.count
        conflictCount = pending.count { $0.change?.serverChange != nil }
        sync.show(pending: pending)
        return true
    }

    /// Another process's changes: the devices its history entries name, and those whose
    /// pending change differs from what the list shows (a sync's claims write no entry).
    /// A pull (a new time, devices added or gone) or too many changes: false.
    mutating func catchUp(_ changes: DeviceHistory.ChangesSince) -> Bool {
        guard let named = changes.devices, changes.lastPull == lastPull, changes.total == deviceTotal else { return false }
        let differing = changes.pending.filter { deviceTab.device($0.id) != $0 }
        guard patch(named + differing, pending: changes.pending) else { return false }
        historySeq = changes.seq
        return true
    }
}
