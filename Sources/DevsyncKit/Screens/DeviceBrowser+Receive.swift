import FoundationEssentials
import ScreenKit
import ToolboxKit

/// What arriving data does: the store read, a pull, a history, a recorded change, a sync's
/// events and its end.
extension DeviceBrowser {
    public mutating func receive(_ message: Message) -> [Command] {
        switch message {
        case .loaded(.success(let snapshot)):
            // A first screenful is for a screen with nothing yet: over a list already shown
            // (a reload) it would move the cursor off a device past it.
            if !snapshot.isComplete && !deviceTab.devices.isEmpty { return [] }
            loading = !snapshot.isComplete
            show(snapshot)
        case .loaded(.failure(let failure)):
            loading = false
            chrome.status.error = failure.brief
        case .pulled(let result):
            pulling = false
            switch result {
            case .success(let pulled):
                chrome.status.online = true
                chrome.status.error = nil
                chrome.notice = "pulled \(pulled.devices) devices" + (pulled.conflicts > 0
                    ? "; \(pulled.conflicts) conflict\(pulled.conflicts == 1 ? "" : "s") with your changes (marked !)" : "")
                loading = true
                return [.load]
            case .failure(let failure):
                noteFailure(failure, hint: "R pulls again")
            }
        case .history(let id, let result):
            guard var detail, detail.device.id == id else { return [] }
            switch result {
            case .success(let events): detail.showHistory(events)
            case .failure(let failure): detail.say(failure.brief)
            }
            self.detail = detail
        case .changed(let id, .success(let change)):
            // Said where the change was made: the detail's own line, else the footer.
            if detail != nil { detail?.say(change.said) } else { chrome.notice = change.said }
            let history: [Command] = detail?.device.id == id ? [.history(id: id)] : []
            if catchingUp.asked { catchingUp.overtaken = true }
            // Patched in place; read whole only while a read is under way (it may have begun
            // before the change) or when the device is not where the list has it.
            if !loading, let device = change.device, patch([device], pending: change.pending) { return history }
            loading = true
            return [.load] + history
        case .changed(_, .failure(let failure)):
            if detail != nil { detail?.say(failure.brief) } else { chrome.status.error = failure.brief }
        case .sync(let event):
            // The counts follow the sync as it goes, not only at its end.
            if sync.apply(event) { pendingCount = max(0, pendingCount - 1) }
        case .syncEnded(let result):
            return syncEnded(result)
        case .storeChanged:
            // Patched from what the history says changed (at 100,000 devices, reading them
            // all again took a few hundred ms); while a read is under way, read again.
            if loading { return [.load] }
            catchingUp = (true, false)
            return [.catchUp(since: historySeq)]
        case .caughtUp(let result):
            // Read before a change of this screen's own landed: asked again, after it.
            if catchingUp.overtaken {
                catchingUp = (true, false)
                return [.catchUp(since: historySeq)]
            }
            catchingUp = (false, false)
            guard !loading, case .success(let changes) = result, catchUp(changes) else {
                loading = true
                return [.load]
            }
            if let id = detail?.device.id, changes.devices?.contains(where: { $0.id.utf8.elementsEqual(id.utf8) }) == true {
                return [.history(id: id)]
            }
        }
        return []
    }

    private mutating func syncEnded(_ result: Result<SyncReport, ToolError>) -> [Command] {
        let stopped = sync.board.stopping
        // One state word at a time (issue 47): "stopping…" goes when "stopped" comes.
        if stopped { chrome.notice = nil }
        switch result {
        case .success(let report):
            var parts = ["\(report.synced) synced"]
            if report.rejected > 0 { parts.append("\(report.rejected) rejected") }
            if report.remaining + report.heldElsewhere > 0 { parts.append("\(report.remaining + report.heldElsewhere) kept for later") }
            let conflicts = sync.board.rows.count { if case .conflict = $0.state { true } else { false } }
            if conflicts > 0 { parts.append("\(conflicts) conflict\(conflicts == 1 ? "" : "s") to resolve") }
            var summary = parts.joined(separator: " · ")
            if report.synced + report.rejected == 0, report.remaining > 0, !stopped {
                // Nothing got an answer: as good as offline, whatever the reason.
                chrome.status.online = false
                summary = "offline: nothing sent, \(report.remaining) kept for later · " + (report.lastError ?? "no answer")
            } else if report.synced + report.rejected > 0 {
                chrome.status.online = true
                chrome.status.error = nil
            }
            if stopped { summary = "stopped: " + summary }
            sync.board.finished(summary)
        case .failure(let failure):
            sync.board.finished("sync failed: " + failure.brief + "; every change not through is kept")
            noteFailure(failure, hint: "S tries again")
        }
        loading = true
        return [.load]
    }

    /// A failure from the server: offline when it could not be reached.
    private mutating func noteFailure(_ failure: ToolError, hint: String) {
        if failure.exitStatus == .unavailable { chrome.status.online = false }
        chrome.status.error = failure.brief + " (" + hint + ")"
    }
}
