import FoundationEssentials
import ScreenDriver
import ScreenKit
import Testing
import ToolboxKit
@testable import DevsyncKit

/// The sync screen: the pending changes, the big button, each change's state live while a
/// sync runs, Esc to stop, and what it did afterwards.
@Suite struct SyncScreenTests: DeviceBrowserTesting {
    func onSync() -> DeviceBrowser {
        var browser = loaded()
        press(.tab, on: &browser)
        #expect(browser.tab == .sync && browser.sync.onButton)
        return browser
    }

    @Test func tabShowsThePendingChangesInSendOrderWithTheirStates() {
        var browser = onSync()
        let text = ScreenDriver.screen(&browser)
        let ids = text.split(separator: "\n").compactMap { row in ["HEA-9000-01", "HEA-8127-29", "WWM-0002-13"].first { row.contains($0) } }
        #expect(ids == ["HEA-9000-01", "HEA-8127-29", "WWM-0002-13"])
        #expect(line("HEA-8127-29", in: text).contains("pending · last error: HTTP 500"))
        #expect(line("HEA-9000-01", in: text).contains("conflict: the server has"))
        #expect(line("WWM-0002-13", in: text).contains("rejected: unknown field"))
        #expect(text.contains("▶ Sync ◀"))
        press(.tab, on: &browser)
        #expect(browser.tab == .devices)
        press(.backTab, on: &browser)
        #expect(browser.tab == .sync)
    }

    @Test func aSyncShowsEveryChangeLiveAndSaysWhatItDid() {
        var browser = onSync()
        let pendingBefore = browser.pendingCount
        #expect(press(.enter, on: &browser) == [.sync])
        #expect(browser.sync.board.running && browser.isBusy)
        #expect(press(.character("S"), on: &browser) == [])
        #expect(ScreenDriver.screen(&browser).contains("a sync is running"))
        _ = browser.receive(.sync(.claimed(["HEA-8127-29"], heldElsewhere: 0)))
        _ = browser.receive(.sync(.sending("HEA-8127-29", attempt: 1)))
        #expect(line("HEA-8127-29", in: ScreenDriver.screen(&browser)).contains("sending…"))
        #expect(ScreenDriver.screen(&browser).contains("syncing 0/1"))
        _ = browser.receive(.sync(.waiting("HEA-8127-29", retry: 1, seconds: 1.2, error: "HTTP 500")))
        #expect(line("HEA-8127-29", in: ScreenDriver.screen(&browser)).contains("retry 1 in 1.2 s · HTTP 500"))
        browser.tick()
        browser.tick()
        #expect(line("HEA-8127-29", in: ScreenDriver.screen(&browser)).contains("retry 1 in 1.0 s"))
        _ = browser.receive(.sync(.sending("HEA-8127-29", attempt: 2)))
        #expect(line("HEA-8127-29", in: ScreenDriver.screen(&browser)).contains("sending… (try 2)"))
        #expect(browser.pendingCount == pendingBefore, "a change being sent is still pending")
        _ = browser.receive(.sync(.synced("HEA-8127-29")))
        #expect(line("HEA-8127-29", in: ScreenDriver.screen(&browser)).contains("synced ✓"))
        // The pending count follows the sync, not only its end; an event said twice counts once.
        #expect(browser.pendingCount == pendingBefore - 1)
        #expect(ScreenDriver.screen(&browser, columns: 120).contains("\(pendingBefore - 1) pending"))
        _ = browser.receive(.sync(.synced("HEA-8127-29")))
        #expect(browser.pendingCount == pendingBefore - 1)
        #expect(ScreenDriver.screen(&browser).contains("syncing 1/1"))
        var report = SyncReport()
        report.synced = 1
        #expect(browser.receive(.syncEnded(.success(report))) == [.load])
        #expect(!browser.sync.board.running)
        // The store read afterwards no longer has it pending; the screen still says synced.
        var after = devices
        after[1] = device("HEA-8127-29", .heating, "Hallway", server: Date(timeIntervalSince1970: 1_709_543_700))
        _ = browser.receive(.loaded(.success(snapshot(after))))
        let text = ScreenDriver.screen(&browser)
        #expect(text.contains("1 synced · 1 conflict to resolve"))
        #expect(line("HEA-8127-29", in: text).contains("synced ✓"))
        #expect(text.contains("Sync (2)"))
    }

    @Test func rejectedAndKeptChangesSayWhy() {
        var board = SyncBoard()
        board.load(pending: devices.filter { $0.change != nil })
        board.started()
        board.apply(.claimed(["HEA-8127-29", "WWM-0002-13"], heldElsewhere: 0))
        #expect(board.rows.map(\.state).prefix(2) == [.queued, .queued])
        board.apply(.rejected("HEA-8127-29", message: "bad date"))
        board.apply(.kept("WWM-0002-13", message: "HTTP 503"))
        #expect(board.progress == (2, 2))
        #expect(SyncBoard.describe(board.rows[0].state).0 == "rejected: bad date")
        #expect(SyncBoard.describe(board.rows[1].state).0 == "kept for later: HTTP 503")
        // An event for a change not on the board is ignored.
        board.apply(.synced("NOPE"))
        #expect(board.rows.count == 3)
    }

    /// Issue 66: while a sync runs, R (pull) and S (sync) do nothing and say why in the
    /// footer, and help marks them; once it ended they act again.
    @Test func keysDisabledDuringASyncSayWhy() {
        var browser = onSync()
        #expect(press(.character("S"), on: &browser) == [.sync])
        #expect(press(.character("R"), on: &browser) == [], "no pull while a sync runs")
        #expect(browser.chrome.notice == "R: a sync is running")
        #expect(press(.character("S"), on: &browser) == [])
        #expect(browser.chrome.notice == "S: a sync is running")
        press(.character("?"), on: &browser)
        #expect(ScreenDriver.screen(&browser).contains("(not now: a sync is running)"))
        press(.escape, on: &browser)
        var report = SyncReport()
        report.synced = 0
        _ = browser.receive(.syncEnded(.success(report)))
        #expect(!browser.sync.board.running)
        press(.character("R"), on: &browser)
        #expect(browser.chrome.notice != "R: a sync is running", "R acts once the sync ended")
    }

    @Test func escStopsAfterTheRequestsInFlight() {
        var browser = onSync()
        press(.character("S"), on: &browser)
        _ = browser.receive(.sync(.claimed(["HEA-8127-29", "WWM-0002-13"], heldElsewhere: 0)))
        #expect(press(.escape, on: &browser) == [.stopSync])
        #expect(browser.sync.board.stopping && browser.tab == .sync)
        #expect(ScreenDriver.screen(&browser).contains("Stopping…"))
        var report = SyncReport()
        report.synced = 1
        report.remaining = 1
        _ = browser.receive(.syncEnded(.success(report)))
        #expect(ScreenDriver.screen(&browser).contains("stopped: 1 synced · 1 kept for later"))
        // Issue 47: one state word at a time: "stopping" is gone once "stopped" shows.
        #expect(!ScreenDriver.screen(&browser).contains("stopping"), "\(ScreenDriver.screen(&browser))")
        #expect(press(.escape, on: &browser) == [])
        #expect(browser.tab == .devices)
    }

    @Test func offlineEverythingIsKeptAndSaidSo() {
        var browser = onSync()
        press(.enter, on: &browser)
        var report = SyncReport()
        report.remaining = 2
        report.lastError = "connection refused (http://127.0.0.1:8107)"
        _ = browser.receive(.syncEnded(.success(report)))
        let text = ScreenDriver.screen(&browser)
        #expect(text.contains("offline: nothing sent, 2 kept for later · connection refused"))
        #expect(text.contains("(offline)"))
        _ = browser.receive(.syncEnded(.failure(.io(path: "s", reason: "disk full"))))
        #expect(ScreenDriver.screen(&browser).contains("sync failed: "))
    }

    @Test func sAnywhereSyncsAndNothingToSendIsSaid() {
        var browser = loaded()
        press(.enter, on: &browser)
        #expect(press(.character("S"), on: &browser) == [.sync])
        #expect(browser.tab == .sync && browser.detail == nil)

        var quiet = DeviceBrowser(server: "s", now: { fixedNow })
        _ = quiet.start()
        _ = quiet.receive(.loaded(.success(snapshot([devices[2]]))))
        #expect(press(.character("S"), on: &quiet) == [])
        #expect(ScreenDriver.screen(&quiet).contains("nothing to send: 1 conflict wait"))
        _ = quiet.receive(.loaded(.success(snapshot([devices[0]]))))
        press(.character("S"), on: &quiet)
        #expect(ScreenDriver.screen(&quiet).contains("nothing to sync"))
    }

    @Test func arrowsMoveBetweenTheChangesAndTheButton() {
        var browser = onSync()
        _ = ScreenDriver.screen(&browser)
        press(.up, on: &browser)
        #expect(!browser.sync.onButton && browser.sync.list.selection == 2)
        press(.character("g"), on: &browser)
        #expect(browser.sync.list.selection == 0)
        #expect(press(.enter, on: &browser) == [.history(id: "HEA-9000-01")])
        press(.escape, .character("G"), on: &browser)
        #expect(browser.sync.onButton)
        press(.home, on: &browser)
        #expect(!browser.sync.onButton && browser.sync.list.selection == 0)
        press(.down, .down, .down, on: &browser)
        #expect(browser.sync.onButton)
    }

    @Test func quittingDuringASyncAsksForASecondQ() {
        var browser = loaded()
        press(.character("S"), .tab, on: &browser)
        #expect(browser.tab == .devices)
        press(.character("q"), on: &browser)
        #expect(browser.outcome == nil)
        #expect(ScreenDriver.screen(&browser).contains("q again quits"))
        press(.character("q"), on: &browser)
        #expect(browser.outcome == 0)
    }

    @Test func everySizeFromSixtyBySixteenFits() {
        for (rows, columns) in [(16, 60), (24, 80), (40, 120)] {
            var browser = onSync()
            press(.enter, on: &browser)
            _ = browser.receive(.sync(.claimed(["HEA-8127-29"], heldElsewhere: 0)))
            _ = browser.receive(.sync(.waiting("HEA-8127-29", retry: 2, seconds: 3, error: String(repeating: "very long error ", count: 20))))
            for text in [ScreenDriver.screen(&browser, rows: rows, columns: columns)] + [{ () -> String in
                press(.tab, .down, .enter, on: &browser)
                return ScreenDriver.screen(&browser, rows: rows, columns: columns)
            }()] {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == rows)
                #expect(lines.allSatisfy { TextWidth.of(String($0)) <= columns })
                #expect(lines.last?.contains("? help") == true)
            }
        }
    }
}
