import FoundationEssentials
import ScreenKit
import ToolboxKit

/// What each key does on each of the three screens.
extension DeviceBrowser {
    public mutating func handle(_ key: KeyPress) -> [Command] {
        if chrome.takes(key) { return [] }
        if key != .character("q") { quitArmed = false }
        if detail != nil { return handleDetail(key) }
        return tab == .devices ? handleDevices(key) : handleSync(key)
    }

    /// The Devices tab's keys: its own it handles, what it asks of the browser here.
    private mutating func handleDevices(_ key: KeyPress) -> [Command] {
        switch deviceTab.handle(key) {
        case .handled, .ignored, .back: break
        case .request(.open(let device)): return open(device)
        case .request(.switchTab): tab = .sync
        case .request(.sync): return startSync()
        case .request(.pull): return pull()
        case .request(.reload):
            loading = true
            return [.load]
        case .help: chrome.openHelp(title: "devices: keys", table: DevicesTab.keys)
        case .quit:
            if sync.board.running && !quitArmed {
                quitArmed = true
                chrome.notice = "a sync is running: q again quits (what is not through stays pending)"
            } else {
                outcome = 0
            }
        }
        return []
    }

    /// The Sync tab's keys: its own it handles, what it asks of the browser here.
    private mutating func handleSync(_ key: KeyPress) -> [Command] {
        switch sync.handle(key) {
        case .handled, .ignored, .quit: break
        case .request(.sync): return startSync()
        case .request(.open(let id)):
            guard let device = deviceTab.device(id) else { return [] }
            return open(device)
        case .request(.pull): return pull()
        case .request(.stop):
            if !sync.board.stopping { chrome.notice = "stopping after the requests in flight…" }
            sync.board.stop()
            return [.stopSync]
        case .request(.refused(let reason)): chrome.notice = reason
        case .help: chrome.openHelp(title: "sync: keys", table: SyncTab.keys, disabled: sync.disabledReason)
        case .back, .request(.switchTab): tab = .devices
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
