import FoundationEssentials
import ScreenKit
import ToolboxKit

/// What each key does on each of the three screens.
extension DeviceBrowser {
    enum Action: Sendable, Equatable {
        case motion(Motion), open, filter, cycleType, switchTab, sync, pull, reload, help, back, clear
    }

    static let devicesKeys = KeyTable<Action>(
        Motion.bindings.map { ($0.keys, $0.label, Action.motion($0.action)) } + [
            ([.enter, .right], "open the device: details, history, set the date", .open),
            ([.character("/")], "filter by id, meter point, type or date (Enter keeps it, Esc clears it)", .filter),
            ([.character("t")], "type: all, then each type the store holds", .cycleType),
            ([.tab, .backTab], "the sync screen", .switchTab),
            ([.character("S")], "sync now", .sync),
            ([.character("R")], "pull the device list from the server", .pull),
            ([.character("r")], "read the store again", .reload),
            ([.character("?")], "this help", .help),
            ([.escape], "clear the filter and the type (nothing else on this first screen)", .clear),
            ([.character("q")], "quit", .back),
        ])

    static let syncKeys = KeyTable<Action>(
        Motion.bindings.map { ($0.keys, $0.label, Action.motion($0.action)) } + [
            ([.enter], "on the button: sync; on a change: open its device", .open),
            ([.character("S")], "sync now", .sync),
            ([.tab, .backTab], "the device list", .switchTab),
            ([.character("R")], "pull the device list from the server", .pull),
            ([.character("?")], "this help", .help),
            ([.escape, .character("q")], "while syncing: stop after the requests in flight; else back", .back),
        ])

    public mutating func handle(_ key: KeyPress) -> [Command] {
        if showsHelp {
            showsHelp = false
            return []
        }
        notice = nil
        if key != .character("q") { quitArmed = false }
        if detail != nil { return handleDetail(key) }
        return tab == .devices ? handleDevices(key) : handleSync(key)
    }

    private mutating func handleDevices(_ key: KeyPress) -> [Command] {
        if list.isFiltering || key == .character("/") {
            _ = list.handle(key)
            return []
        }
        if case .click(let row, _) = key {
            return list.click(row: row, in: listRect) ? openSelected() : []
        }
        switch Self.devicesKeys.action(for: key) {
        case .motion(let motion)?: list.move(motion)
        case .open?: return openSelected()
        case .cycleType?:
            let types = self.types
            let next = typeFilter.flatMap { types.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            typeFilter = next < types.count ? types[next] : nil
            filterByType()
        case .clear?:
            if !list.clearFilter() && typeFilter != nil {
                typeFilter = nil
                filterByType()
            }
        case .switchTab?: tab = .sync
        case .sync?: return startSync()
        case .pull?: return pull()
        case .reload?:
            loading = true
            return [.load]
        case .help?: showsHelp = true
        case .back?:
            if board.running && !quitArmed {
                quitArmed = true
                notice = "a sync is running: q again quits (what is not through stays pending)"
            } else {
                outcome = 0
            }
        case .filter?, nil: break
        }
        return []
    }

    private mutating func handleSync(_ key: KeyPress) -> [Command] {
        switch Self.syncKeys.action(for: key) {
        case .motion(let motion)?: moveOnBoard(motion)
        case .open?:
            if onButton { return startSync() }
            guard let index = boardList.selection, index < board.rows.count else { return [] }
            let id = board.rows[index].id
            guard let device = devices.first(where: { $0.id.utf8.elementsEqual(id.utf8) }) else { return [] }
            return open(device)
        case .sync?: return startSync()
        case .switchTab?: tab = .devices
        case .pull?: return pull()
        case .help?: showsHelp = true
        case .back?:
            if board.running {
                if !board.stopping { notice = "stopping after the requests in flight…" }
                board.stop()
                return [.stopSync]
            }
            tab = .devices
        case .filter?, .cycleType?, .reload?, .clear?, nil: break
        }
        return []
    }

    /// ↑ from the button goes to the last change, ↓ from the last change to the button.
    private mutating func moveOnBoard(_ motion: Motion) {
        let count = board.rows.count
        if onButton {
            guard count > 0, [.up, .pageUp, .halfPageUp, .first].contains(motion) else { return }
            onButton = false
            boardList.move(motion == .first ? .first : .last)
        } else if [.down, .pageDown, .halfPageDown, .last].contains(motion), boardList.selection == count - 1 || motion == .last {
            onButton = true
        } else {
            boardList.move(motion)
        }
    }

    private mutating func handleDetail(_ key: KeyPress) -> [Command] {
        guard var detail else { return [] }
        let action = detail.handle(key, now: now())
        self.detail = detail
        let id = detail.device.id
        switch action {
        case .none: return []
        case .help: showsHelp = true
        case .back: self.detail = nil
        case .sync:
            self.detail = nil
            return startSync()
        case .pull: return pull()
        case .record(let date): return [.record(id: id, date)]
        case .discard: return [.discard(id: id, detail: nil)]
        case .keepLocal: return [.keepLocal(id: id)]
        case .takeServer: return [.discard(id: id, detail: "took the server's value over the local one")]
        }
        return []
    }

    private mutating func openSelected() -> [Command] {
        guard let index = list.selection, index < shown.count else { return [] }
        return open(shown[index])
    }

    mutating func open(_ device: Device) -> [Command] {
        detail = DeviceDetail(device: device)
        return [.history(id: device.id)]
    }

    mutating func startSync() -> [Command] {
        tab = .sync
        onButton = true
        guard !board.running else {
            notice = "a sync is running (Esc stops it)"
            return []
        }
        guard board.sendable > 0 else {
            let conflicts = conflictCount
            notice = conflicts > 0 ? "nothing to send: \(conflicts) conflict\(conflicts == 1 ? "" : "s") wait for you (Enter on one)"
                : "nothing to sync"
            return []
        }
        board.started()
        return [.sync]
    }

    mutating func pull() -> [Command] {
        guard !pulling else { return [] }
        pulling = true
        return [.pull]
    }
}
