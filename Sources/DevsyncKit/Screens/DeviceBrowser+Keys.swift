import FoundationEssentials
import ScreenKit
import ToolboxKit

/// What each key does on each of the three screens.
extension DeviceBrowser {
    enum Action: Sendable, Equatable {
        case motion(Motion), open, filter, cycleType, switchTab, sync, pull, reload, help, back, clear
    }

    static let devicesKeys = KeyTable<Action>(
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
            .init([.character("q")], "quit (while a sync runs, q twice)", .back, hint: "quit"),
        ])

    static let syncKeys = KeyTable<Action>(
        Motion.bindings.map { .init($0.keys, $0.label, Action.motion($0.action)) } + [
            .init([.enter], "on the button: sync; on a change: open its device", .open, hint: "sync"),
            .init([.character("S")], "sync now", .sync),
            .init([.tab, .backTab], "the device list", .switchTab, hint: "devices"),
            .init([.character("R")], "pull the device list from the server", .pull),
            .init([.character("?"), .function(1)], "this help", .help),
            .init([.escape, .character("q")], "while syncing: stop after the requests in flight; else back", .back, hint: "back"),
        ])

    public mutating func handle(_ key: KeyPress) -> [Command] {
        if chrome.takes(key) { return [] }
        if key != .character("q") { quitArmed = false }
        if detail != nil { return handleDetail(key) }
        return tab == .devices ? handleDevices(key) : handleSync(key)
    }

    private mutating func handleDevices(_ key: KeyPress) -> [Command] {
        if deviceTab.list.isFiltering || key == .character("/") {
            _ = deviceTab.list.handle(key)
            return []
        }
        if case .click(let row, _) = key {
            return deviceTab.list.click(row: row) ? openSelected() : []
        }
        switch Self.devicesKeys.action(for: key) {
        case .motion(let motion)?: deviceTab.list.move(motion)
        case .open?: return openSelected()
        case .cycleType?: deviceTab.cycleType()
        case .clear?: _ = deviceTab.clearFilters()
        case .switchTab?: tab = .sync
        case .sync?: return startSync()
        case .pull?: return pull()
        case .reload?:
            loading = true
            return [.load]
        case .help?: chrome.openHelp(title: "devices: keys", table: Self.devicesKeys)
        case .back?:
            if sync.board.running && !quitArmed {
                quitArmed = true
                chrome.notice = "a sync is running: q again quits (what is not through stays pending)"
            } else {
                outcome = 0
            }
        case .filter?, nil: break
        }
        return []
    }

    private mutating func handleSync(_ key: KeyPress) -> [Command] {
        switch Self.syncKeys.action(for: key) {
        case .motion(let motion)?: sync.move(motion)
        case .open?:
            if sync.onButton { return startSync() }
            guard let id = sync.selectedID else { return [] }
            guard let device = deviceTab.device(id) else { return [] }
            return open(device)
        case .sync?: return startSync()
        case .switchTab?: tab = .devices
        case .pull?: return pull()
        case .help?: chrome.openHelp(title: "sync: keys", table: Self.syncKeys)
        case .back?:
            if sync.board.running {
                if !sync.board.stopping { chrome.notice = "stopping after the requests in flight…" }
                sync.board.stop()
                return [.stopSync]
            }
            tab = .devices
        case .filter?, .cycleType?, .reload?, .clear?, nil: break
        }
        return []
    }

    private mutating func handleDetail(_ key: KeyPress) -> [Command] {
        guard var detail else { return [] }
        let reply = detail.handle(key, now: now())
        self.detail = detail
        let id = detail.device.id
        switch reply {
        case .handled, .ignored: return []
        case .help: chrome.openHelp(title: "device: keys", table: DeviceDetail.keys)
        case .back: self.detail = nil
        case .quit: outcome = 0
        case .request(.sync):
            self.detail = nil
            return startSync()
        case .request(.pull): return pull()
        case .request(.record(let date)): return [.record(id: id, date)]
        case .request(.discard): return [.discard(id: id, detail: nil)]
        case .request(.keepLocal): return [.keepLocal(id: id)]
        case .request(.takeServer): return [.discard(id: id, detail: "took the server's value over the local one")]
        }
        return []
    }

    private mutating func openSelected() -> [Command] {
        guard let device = deviceTab.selected else { return [] }
        return open(device)
    }

    mutating func open(_ device: Device) -> [Command] {
        detail = DeviceDetail(device: device)
        layOut()
        return [.history(id: device.id)]
    }

    mutating func startSync() -> [Command] {
        tab = .sync
        sync.onButton = true
        guard !sync.board.running else {
            chrome.notice = "a sync is running (Esc stops it)"
            return []
        }
        guard sync.board.sendable > 0 else {
            let conflicts = conflictCount
            chrome.notice = conflicts > 0 ? "nothing to send: \(conflicts) conflict\(conflicts == 1 ? "" : "s") wait for you (Enter on one)"
                : "nothing to sync"
            return []
        }
        sync.board.started()
        return [.sync]
    }

    mutating func pull() -> [Command] {
        guard !pulling else { return [] }
        pulling = true
        return [.pull]
    }
}
