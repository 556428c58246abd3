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
    public enum Command: ScreenCommand, Equatable {
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

        public var policy: CommandPolicy {
            switch self {
            case .load: .latest("load")
            case .pull: .latest("pull")
            case .history: .latest("history")
            case .record, .discard, .keepLocal: .serial("store")
            case .sync: .latest("sync")
            case .stopSync: .serial("stop")
            case .watchStore: .latest("watch")
            }
        }
    }

    /// The store as the screens show it.
    public struct Snapshot: Sendable, Equatable {
        public var devices: [Device]
        /// Each device's filter text (built off the screen's thread).
        public var texts: [String]
        /// The devices with a change, in the order sync sends them.
        public var pending: [Device]
        public var lastPull: Date?
        /// The devices in the store: more than `devices` while the rest is still being read.
        public var total: Int
        public var isComplete: Bool { devices.count >= total }

        public init(devices: [Device], pending: [Device], lastPull: Date?, total: Int? = nil) {
            self.devices = devices
            texts = devices.map(DeviceLine.filterText)
            self.pending = pending
            self.lastPull = lastPull
            self.total = total ?? devices.count
        }
    }

    public enum Message: Sendable, Equatable {
        case loaded(Result<Snapshot, ToolError>)
        case pulled(Result<DevicePull.Outcome, ToolError>)
        case history(id: String, Result<[HistoryEvent], ToolError>)
        /// A change is in the store (what to say, and the device and pending changes as the
        /// store now has them), or was refused.
        case changed(id: String, Result<Change, ToolError>)
        case sync(SyncEvent)
        case syncEnded(Result<SyncReport, ToolError>)
        /// Another process committed to the store.
        case storeChanged
    }

    /// A change this screen made, as the store has it after the commit: enough to patch the
    /// screen without reading every device again.
    public struct Change: Sendable, Equatable {
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

    public enum Tab: Sendable, Equatable { case devices, sync }

    public internal(set) var tab = Tab.devices
    public internal(set) var devices: [Device] = []
    /// The devices the list shows (after the type filter): `list`'s items.
    public internal(set) var shown = PickedItems<Device>()
    public internal(set) var list = ListView()
    var texts: [String] = []
    /// The type filter: nil shows every type.
    public internal(set) var typeFilter: DeviceType?
    /// The Sync tab: the pending changes, the sync's progress, the button.
    var sync = SyncTab()
    public internal(set) var detail: DeviceDetail?
    public internal(set) var chrome: Chrome
    public internal(set) var outcome: Int32?
    var loading = true
    var pulling = false
    var lastPull: Date?
    /// q pressed once while a sync runs: a second q quits.
    var quitArmed = false
    var idWidth = 12
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
        list.layout(Rect(row: body.row + 1, column: 0, rows: body.rows - 1, columns: body.columns))
        sync.layout(body)
        detail?.layout(Rect(row: body.row + 1, column: 1, rows: body.rows - 1, columns: body.columns - 2))
    }

    /// Counted when the store is read, not at every frame.
    var deviceTotal = 0
    var pendingCount = 0
    var conflictCount = 0

    /// Shows `devices` (the store's, in id order) through the type filter, keeping the cursor
    /// on the same device.
    mutating func show(_ snapshot: Snapshot) {
        devices = snapshot.devices
        texts = snapshot.texts
        lastPull = snapshot.lastPull
        deviceTotal = snapshot.total
        idWidth = DeviceLine.idWidth(devices)
        pendingCount = snapshot.pending.count
        conflictCount = snapshot.pending.count { $0.change?.serverChange != nil }
        if let typeFilter, !devices.contains(where: { $0.type == typeFilter }) { self.typeFilter = nil }
        filterByType()
        sync.show(pending: snapshot.pending)
        if let open = detail?.device.id, let device = devices.first(where: { $0.id.utf8.elementsEqual(open.utf8) }) {
            detail?.update(device)
        }
    }

    /// One device changed by this screen: its new state put in place (found by id, in the
    /// store's order, by bytes) and the pending changes taken anew, without reading the other
    /// devices again (100,000 took a few hundred ms). False when it cannot be patched.
    mutating func patch(_ change: Change) -> Bool {
        guard let device = change.device, let index = Self.position(of: device.id, in: devices),
              devices[index].type == device.type else { return false }
        // The list's copy of the devices let go first, so that the store's order is changed in
        // place, not copied whole (100,000 devices) for one.
        let positions = shown.positions
        shown = PickedItems()
        devices[index] = device
        shown = PickedItems(devices, positions: positions)
        let text = DeviceLine.filterText(device)
        texts[index] = text
        // The type is the same, so the device is where it was among those shown.
        if let row = typeFilter == nil ? index : Self.row(of: index, in: positions) { list.replaceItem(row, with: text) }
        pendingCount = change.pending.count
        conflictCount = change.pending.count { $0.change?.serverChange != nil }
        sync.show(pending: change.pending)
        if detail?.device.id.utf8.elementsEqual(device.id.utf8) == true { detail?.update(device) }
        return true
    }

    /// Where device `index` is among those shown (`positions`, ascending).
    static func row(of index: Int, in positions: [Int]) -> Int? {
        var low = 0, high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low < positions.count && positions[low] == index ? low : nil
    }

    /// Where `id` is among `devices`, which are in the store's id order (SQLite's BINARY
    /// collation: by UTF-8 bytes); nil when it is not there.
    static func position(of id: String, in devices: [Device]) -> Int? {
        var low = 0, high = devices.count
        while low < high {
            let middle = (low + high) / 2
            if devices[middle].id.utf8.lexicographicallyPrecedes(id.utf8) { low = middle + 1 } else { high = middle }
        }
        return low < devices.count && devices[low].id.utf8.elementsEqual(id.utf8) ? low : nil
    }

    mutating func filterByType() {
        let selected = list.selection.map { shown[$0].id }
        let typeFilter = typeFilter
        shown = PickedItems(devices) { typeFilter == nil || $0.type == typeFilter }
        list.setSections([ListView.Section(items: typeFilter == nil ? texts : shown.positions.map { texts[$0] })])
        if let selected, let index = shown.firstIndex(where: { $0.id.utf8.elementsEqual(selected.utf8) }) { list.select(index) }
    }

    /// The types the store holds, in the order `t` cycles through them (after "all").
    var types: [DeviceType] {
        var seen: [DeviceType] = []
        for device in devices where !seen.contains(device.type) { seen.append(device.type) }
        return seen.sorted { $0.displayName < $1.displayName }
    }
}
