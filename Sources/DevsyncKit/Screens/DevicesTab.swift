import ScreenKit
import ToolboxKit

/// `devsync ui`'s Devices tab, a child screen of `DeviceBrowser` (as `DeviceDetail` and
/// `SyncTab` are): every device from the store in the store's id order, the type filter and
/// the list's own filter over them, and one changed device patched in without the others.
struct DevicesTab: Sendable {
    private(set) var devices: [Device] = []
    /// The devices the list shows (after the type filter): `list`'s items.
    private(set) var shown = PickedItems<Device>()
    var list = ListView()
    /// Each device's filter text, as the snapshot brought it.
    private var texts: [String] = []
    /// The type filter: nil shows every type.
    private(set) var typeFilter: DeviceType?
    private(set) var idWidth = 12

    /// What a key here asks of `DeviceBrowser`.
    enum Request: Sendable, Equatable { case open(Device), switchTab, sync, pull, reload }

    enum Action: Sendable, Equatable { case motion(Motion), open, filter, cycleType, switchTab, sync, pull, reload, help, quit, clear }

    static let keys = KeyTable<Action>(
        Motion.bindings.map { .init($0.keys, $0.label, Action.motion($0.action)) } + [
            .init([.enter, .right], "open the device: details, history, set the date", .open, hint: "open"),
            .init([.character("/")], "filter by id, meter point, type or date as you type (Enter keeps it, Esc clears it)", .filter,
                  hint: "filter"),
            .init([.character("t")], "type: all, then each type the store holds", .cycleType, hint: "type"),
            .init([.tab, .backTab], "the sync screen", .switchTab, hint: "sync screen"),
            .init([.character("S")], "sync now", .sync, hint: "sync"),
            .init([.character("R")], "pull the device list from the server", .pull, hint: "pull"),
            .init([.character("r")], "read the store again (other processes' changes show by themselves)", .reload),
            .init([.character("?"), .function(1)], "this help", .help),
            .init([.escape], "clear the filter and the type (nothing else on this first screen)", .clear),
            .init([.character("q")], "quit (while a sync runs, q twice)", .quit, hint: "quit"),
        ])

    /// The footer's hints: the filter's while it is typed, else the table's.
    var hints: [String] { list.isFiltering ? ListView.filterHints : Self.keys.hints }

    mutating func handle(_ key: KeyPress) -> SubScreenReply<Request> {
        if list.isFiltering || key == .character("/") {
            _ = list.handle(key)
            return .handled
        }
        if case .click(let row, _) = key {
            guard list.click(row: row), let selected else { return .handled }
            return .request(.open(selected))
        }
        switch Self.keys.action(for: key) {
        case .motion(let motion)?: list.move(motion)
        case .open?: return selected.map { .request(.open($0)) } ?? .handled
        case .cycleType?: cycleType()
        case .clear?: _ = clearFilters()
        case .switchTab?: return .request(.switchTab)
        case .sync?: return .request(.sync)
        case .pull?: return .request(.pull)
        case .reload?: return .request(.reload)
        case .help?: return .help
        case .quit?: return .quit
        case .filter?: break
        case nil: return .ignored
        }
        return .handled
    }

    mutating func layout(_ body: Rect) {
        list.layout(Rect(row: body.row + 1, column: 0, rows: body.rows - 1, columns: body.columns))
    }

    /// Shows `devices` (the store's, in id order) through the type filter, keeping the cursor
    /// on the same device.
    mutating func show(_ devices: [Device], texts: [String]) {
        self.devices = devices
        self.texts = texts
        idWidth = DeviceLine.idWidth(devices)
        if let typeFilter, !devices.contains(where: { $0.type == typeFilter }) { self.typeFilter = nil }
        filterByType()
    }

    /// One device changed: its new state put in place (found by id, in the store's order, by
    /// bytes), without touching the others (100,000 took a few hundred ms to read again).
    /// False when it is not where the list has it.
    mutating func patch(_ device: Device) -> Bool {
        guard let index = Self.position(of: device.id, in: devices), devices[index].type == device.type else { return false }
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
        return true
    }

    /// The device called `id`, if the store had it at the last read.
    func device(_ id: String) -> Device? { Self.position(of: id, in: devices).map { devices[$0] } }

    /// The device under the cursor.
    var selected: Device? {
        guard let index = list.selection, index < shown.count else { return nil }
        return shown[index]
    }

    /// `t`: the next type the store holds, after the last one every type again.
    mutating func cycleType() {
        let types = self.types
        let next = typeFilter.flatMap { types.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        typeFilter = next < types.count ? types[next] : nil
        filterByType()
    }

    /// Esc: the list's filter first, then the type filter. False when there was neither.
    mutating func clearFilters() -> Bool {
        if list.clearFilter() { return true }
        guard typeFilter != nil else { return false }
        typeFilter = nil
        filterByType()
        return true
    }

    private mutating func filterByType() {
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

    /// The column header, then the list, or what stands in its place: the store being read,
    /// or no devices yet.
    func draw(into canvas: inout Canvas, body: Rect, loading: Bool, pulling: Bool, tick: Int) {
        canvas.put(DeviceLine.header(width: body.columns, idWidth: idWidth), row: body.row, column: 0, width: body.columns, style: .dim)
        let listRow = list.rect.row
        if loading && devices.isEmpty {
            canvas.put(" " + Spinner.frame(tick) + " reading the store…", row: listRow, column: 0)
            return
        }
        if devices.isEmpty {
            canvas.put(pulling ? " no devices in the store yet: pulling them from the server…"
                       : " no devices in the store: R pulls them from the server", row: listRow, column: 0,
                       width: body.columns, style: .dim)
            return
        }
        let shown = self.shown
        let idWidth = self.idWidth
        list.draw(into: &canvas) { canvas, index, _, row, column, width in
            DeviceLine.draw(shown[index], into: &canvas, row: row, column: column, width: width, idWidth: idWidth)
        }
    }
}
