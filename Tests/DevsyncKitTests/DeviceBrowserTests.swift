import FoundationEssentials
import ScreenDriver
import ScreenKit
import Testing
import ToolboxKit
@testable import DevsyncKit

/// `devsync ui`'s devices and detail screens, key by key, without a terminal.
@Suite struct DeviceBrowserTests: DeviceBrowserTesting {
    /// Issue 39: the first screenful is shown while the rest of the store is read, counted as
    /// the store's total and marked as still reading; the whole list replaces it, the cursor
    /// staying on its device.
    @Test func theFirstScreenfulShowsWhileTheRestIsRead() {
        var browser = DeviceBrowser(server: "http://127.0.0.1:8107", now: { fixedNow })
        _ = browser.start()
        let all = (0..<2_000).map { device(String(format: "HEA-%04d", $0), .heating, "Room \($0)") }
        var first = snapshot(Array(all.prefix(DeviceBrowserWork.firstRead)))
        first.total = all.count
        _ = browser.receive(.loaded(.success(first)))
        let partial = ScreenDriver.screen(&browser, columns: 120)
        #expect(partial.contains("HEA-0000") && partial.contains("2000 devices"), "\(partial)")
        #expect(browser.loading, "still reading the store")
        press(.down, .down, on: &browser)
        _ = browser.receive(.loaded(.success(snapshot(all))))
        let whole = ScreenDriver.screen(&browser, columns: 120)
        #expect(whole.contains("2000 devices") && !browser.loading, "\(whole)")
        #expect(browser.deviceTab.list.selection.map { browser.deviceTab.shown[$0].id } == "HEA-0002")
        // A reload (r, another process's change) over the list shown: its first screenful is
        // passed over, so the cursor stays on a device past it.
        press(.end, on: &browser)
        _ = browser.receive(.loaded(.success(first)))
        #expect(browser.deviceTab.list.selection.map { browser.deviceTab.shown[$0].id } == "HEA-1999" && !browser.loading)
        _ = browser.receive(.loaded(.success(snapshot(all))))
        #expect(browser.deviceTab.list.selection.map { browser.deviceTab.shown[$0].id } == "HEA-1999")
    }

    @Test func theListShowsEveryDeviceWithItsMarkDateAndType() {
        var browser = loaded()
        let text = ScreenDriver.screen(&browser)
        #expect(line("CWM-0012-62", in: text).contains("not installed"))
        #expect(line("CWM-0012-62", in: text).contains("Cold water"))
        #expect(line("HEA-8127-29", in: text).hasPrefix("• "))
        #expect(line("HEA-9000-01", in: text).hasPrefix("! "))
        #expect(line("WWM-0002-13", in: text).hasPrefix("✗ "))
        #expect(line("WWM-0001-12", in: text).contains(DateDisplay.human(Date(timeIntervalSince1970: 1_709_543_700))))
        let wide = ScreenDriver.screen(&browser, columns: 120)
        #expect(wide.contains("3 pending · pulled " + DateDisplay.short(fixedNow.addingTimeInterval(-60), now: fixedNow)
                              + " · 1 conflicts · 5 devices"))
        #expect(text.contains("Sync (3)"))
        // Narrow: the type goes, the rest keeps its width, nothing passes the edge.
        let narrow = ScreenDriver.screen(&browser, rows: 16, columns: 50)
        #expect(!narrow.contains("Cold water"))
        #expect(narrow.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 50 })
        #expect(line("CWM-0012-62", in: narrow).contains("not installed"))
    }

    @Test func startingReadsTheStoreAndPullsAndAPullFailureIsOffline() {
        var browser = DeviceBrowser(server: "http://127.0.0.1:8107", now: { fixedNow })
        #expect(browser.start() == [.load, .pull, .watchStore])
        #expect(ScreenDriver.screen(&browser).contains("reading the store"))
        _ = browser.receive(.loaded(.success(snapshot([]))))
        #expect(ScreenDriver.screen(&browser).contains("no devices in the store yet: pulling"))
        #expect(browser.receive(.pulled(.failure(.unreachable(url: "http://127.0.0.1:8107", reason: "connection refused")))) == [])
        let offline = ScreenDriver.screen(&browser)
        #expect(offline.contains("(offline)"))
        #expect(offline.contains("R pulls them"))
        // R pulls again, once at a time; a pull that works reads the store again.
        #expect(press(.character("R"), .character("R"), on: &browser) == [.pull])
        #expect(browser.receive(.pulled(.success(DevicePull.Outcome(devices: 5, conflicts: 1)))) == [.load])
        #expect(ScreenDriver.screen(&browser).contains("pulled 5 devices; 1 conflict with your changes"))
        #expect(!ScreenDriver.screen(&browser).contains("(offline)"))
    }

    @Test func slashFiltersByAnyFieldAndTCyclesTheTypes() {
        var browser = loaded()
        press(.character("/"), on: &browser)
        ScreenDriver.type("kitchen", into: &browser)
        #expect(browser.deviceTab.list.shownCount == 1)
        #expect(ScreenDriver.screen(&browser, columns: 120).contains("1 of 5 devices"))
        press(.escape, on: &browser)
        ScreenDriver.type("/not installed", into: &browser)
        #expect(browser.deviceTab.list.shownCount == 2)
        press(.enter, on: &browser)
        #expect(!browser.deviceTab.list.isFiltering && browser.deviceTab.list.shownCount == 2)
        press(.character("/"), .control("u"), .escape, on: &browser)
        #expect(browser.deviceTab.list.shownCount == 5)

        let cycle = (0..<4).map { _ -> String in
            press(.character("t"), on: &browser)
            return browser.deviceTab.typeFilter?.displayName ?? "all"
        }
        #expect(cycle == ["Cold water", "Heating", "Warm water", "all"])
        press(.character("t"), .character("t"), on: &browser)
        #expect(browser.deviceTab.shown.map(\.id) == ["HEA-8127-29", "HEA-9000-01"])
        #expect(ScreenDriver.screen(&browser).contains("devsync › devices · Heating"))
    }

    @Test func enterOpensTheDetailWithBothDatesAndItsHistory() {
        var browser = loaded()
        press(.down, .down, on: &browser)
        #expect(press(.enter, on: &browser) == [.history(id: "HEA-9000-01")])
        #expect(browser.isBusy == true)
        let event = HistoryEvent(seq: 1, at: Self.now, device: "HEA-9000-01", event: .conflict, oldValue: nil,
                                 newValue: Date(timeIntervalSince1970: 1_709_630_100), detail: "the server changed it")
        _ = browser.receive(.history(id: "HEA-9000-01", .success([event])))
        let text = ScreenDriver.screen(&browser, rows: 24, columns: 100)
        #expect(text.contains("devsync › HEA-9000-01"))
        #expect(text.contains("server has   " + DateDisplay.human(Date(timeIntervalSince1970: 1_709_543_700))))
        #expect(text.contains("pending      not installed · recorded"))
        #expect(text.contains("the server now has " + DateDisplay.human(Date(timeIntervalSince1970: 1_709_630_100))))
        #expect(text.contains("history (1)"))
        #expect(line("the server changed it", in: text).contains("conflict"))
        // History of another device arriving late is not shown here.
        _ = browser.receive(.history(id: "CWM-0012-62", .success([])))
        #expect(browser.detail?.history?.count == 1)
        press(.escape, on: &browser)
        #expect(browser.detail == nil)
    }

    @Test func iRecordsADateFromEveryFormInstallTakesAndABadOneIsAMessage() {
        var browser = loaded()
        press(.enter, on: &browser)
        press(.character("i"), on: &browser)
        #expect(browser.detail?.dateField?.text == DateDisplay.human(Self.now))
        // Letters are text in the field: q and S do nothing else.
        press(.control("u"), on: &browser)
        ScreenDriver.type("qS", into: &browser)
        #expect(press(.enter, on: &browser) == [])
        #expect(browser.outcome == nil && browser.tab == .devices)
        #expect(ScreenDriver.screen(&browser).contains("invalid date \"qS\""))
        #expect(browser.detail?.dateField != nil)
        press(.control("u"), on: &browser)
        ScreenDriver.type("2024-10-01 09:15", into: &browser)
        let expected = try? DateInput.parse("2024-10-01 09:15")
        #expect(press(.enter, on: &browser) == [.record(id: "CWM-0012-62", expected)])
        #expect(browser.detail?.dateField == nil)
        // Shown once the store has it: the notice, the device patched in place (no store read),
        // its history asked again.
        let recorded = device("CWM-0012-62", .coldWater, "Kitchen", change: (expected, .pending, nil, nil), recorded: 9)
        let pending = snapshot(devices).pending + [recorded]
        #expect(browser.receive(.changed(id: "CWM-0012-62", .success(.init(said: "CWM-0012-62 installed", device: recorded, pending: pending))))
                == [.history(id: "CWM-0012-62")])
        #expect(browser.detail?.device == recorded)
        #expect(browser.sync.board.rows.map(\.id).last == "CWM-0012-62")
        press(.character("i"), on: &browser)
        ScreenDriver.type("2024-03-04T09:15:00Z", into: &browser)
        press(.escape, on: &browser)
        #expect(browser.detail?.dateField == nil && browser.detail != nil)
        #expect(press(.character("c"), on: &browser) == [.record(id: "CWM-0012-62", nil)])
        // A refusal from the store is said on the detail screen.
        _ = browser.receive(.changed(id: "CWM-0012-62", .failure(.io(path: "s", reason: "the store is read-only; nothing was changed"))))
        #expect(ScreenDriver.screen(&browser).contains("read-only"))
    }

    /// Issue 48: a change this screen made patches the list, the counts and the sync board in
    /// place; the store is read again only while a read is under way (it may predate the
    /// change) or when the device is not where the list has it.
    @Test func aChangeIsPatchedInPlaceNotReloaded() {
        var browser = loaded()
        let day = Date(timeIntervalSince1970: 1_709_543_700)
        let changed = device("WWM-0001-12", .warmWater, "Bathroom", server: day, change: (nil, .pending, nil, nil), recorded: 9)
        let pending = snapshot(devices).pending + [changed]
        let before = ScreenDriver.screen(&browser, columns: 120)
        #expect(browser.receive(.changed(id: changed.id, .success(.init(said: "WWM-0001-12 not installed; pending sync",
                                                                          device: changed, pending: pending)))) == [])
        let after = ScreenDriver.screen(&browser, columns: 120)
        #expect(line("WWM-0001-12", in: after) != line("WWM-0001-12", in: before))
        #expect(after.contains("4 pending"), "\(after)")
        #expect(browser.sync.board.rows.count == 4)
        // Not in the list: read whole.
        let stranger = device("ZZZ-0000-00", .heating, "Nowhere", change: (nil, .pending, nil, nil))
        #expect(browser.receive(.changed(id: stranger.id, .success(.init(said: "x", device: stranger, pending: pending)))) == [.load])
        // While a read is under way: read whole again after it.
        #expect(browser.receive(.changed(id: changed.id, .success(.init(said: "x", device: changed, pending: pending)))) == [.load])
    }

    /// Under the type filter the patched device is found among those shown, not at its place
    /// in the store: the row that changes is its own.
    @Test func aChangeUnderATypeFilterPatchesItsOwnRow() {
        var browser = loaded()
        // Heating: its devices are not the store's first, so their rows are not their places.
        press(.character("t"), .character("t"), on: &browser)
        let type = browser.deviceTab.typeFilter
        #expect(type == .heating)
        let shownIDs = browser.deviceTab.shown.map(\.id)
        #expect(type != nil && shownIDs.count < devices.count)
        guard let target = browser.deviceTab.shown.last else { return }
        let day = Date(timeIntervalSince1970: 1_709_543_700)
        let changed = device(target.id, target.type, "Patched here", server: target.serverDate,
                             change: (day, .pending, nil, nil), recorded: 9)
        let pending = snapshot(devices).pending.filter { $0.id != target.id } + [changed]
        #expect(browser.receive(.changed(id: target.id, .success(.init(said: "x", device: changed, pending: pending)))) == [])
        #expect(browser.deviceTab.shown.map(\.id) == shownIDs)
        #expect(browser.deviceTab.shown.last?.meterPointDescription == "Patched here")
        let screen = ScreenDriver.screen(&browser, columns: 120)
        #expect(line(target.id, in: screen).contains("Patched here"), "\(screen)")
        // The list's filter text is the patched device's too, in its own row.
        press(.character("/"), on: &browser)
        ScreenDriver.type("Patched", into: &browser)
        press(.enter, on: &browser)
        #expect(browser.deviceTab.list.shownCount == 1)
        #expect(browser.deviceTab.selected?.id == target.id)
    }

    @Test func aDeviceIsFoundInTheStoresByteOrder() {
        let ids = ["A", "B", "a", "b", "é", "東", "🎉"]  // SQLite's BINARY order: by UTF-8 bytes
        let list = ids.map { device($0, .heating, "") }
        for (index, id) in ids.enumerated() { #expect(DevicesTab.position(of: id, in: list) == index) }
        #expect(DevicesTab.position(of: "c", in: list) == nil)
        #expect(DevicesTab.position(of: "e\u{301}", in: list) == nil, "é composed is not é decomposed: bytes, not Characters")
        #expect(DevicesTab.position(of: "x", in: []) == nil)
    }

    @Test func dDiscardsOnlyAfterAYes() {
        var browser = loaded()
        press(.enter, on: &browser)
        #expect(press(.character("d"), on: &browser) == [])
        #expect(ScreenDriver.screen(&browser).contains("nothing to discard"))
        press(.escape, .down, .enter, on: &browser)
        #expect(press(.character("d"), on: &browser) == [])
        #expect(ScreenDriver.screen(&browser).contains("discard the pending change to HEA-8127-29? y discards"))
        #expect(press(.character("n"), on: &browser) == [])
        #expect(browser.detail?.confirmingDiscard == false)
        #expect(press(.character("d"), .character("y"), on: &browser) == [.discard(id: "HEA-8127-29", detail: nil)])
    }

    @Test func aConflictIsResolvedEitherWay() {
        var browser = loaded()
        press(.down, .down, .enter, on: &browser)
        #expect(press(.character("m"), on: &browser) == [.keepLocal(id: "HEA-9000-01")])
        #expect(press(.character("t"), on: &browser) == [.discard(id: "HEA-9000-01", detail: "took the server's value over the local one")])
        press(.escape, .up, .enter, on: &browser)
        #expect(press(.character("m"), on: &browser) == [])
        #expect(ScreenDriver.screen(&browser).contains("no conflict to resolve"))
    }

    @Test func helpShowsEachScreensKeysAndQQuits() {
        var browser = loaded()
        press(.character("?"), on: &browser)
        #expect(ScreenDriver.screen(&browser).contains("devices: keys"))
        press(.character("x"), on: &browser)
        #expect(!browser.showsHelp)
        press(.enter, .character("?"), on: &browser)
        #expect(ScreenDriver.screen(&browser).contains("device: keys"))
        press(.character("x"), .escape, on: &browser)
        press(.tab, .character("?"), on: &browser)
        #expect(ScreenDriver.screen(&browser).contains("sync: keys"))
        press(.character("x"), .character("q"), on: &browser)
        #expect(browser.tab == .devices && browser.outcome == nil)
        press(.character("q"), on: &browser)
        #expect(browser.outcome == 0)
    }

    @Test func aClickOpensTheDeviceUnderIt() {
        var browser = loaded()
        _ = ScreenDriver.screen(&browser)
        #expect(press(.click(row: 3, column: 5), on: &browser) == [.history(id: "HEA-8127-29")])
        press(.escape, on: &browser)
        #expect(press(.character("r"), on: &browser) == [.load])
    }
}

/// Issue 38, item 1: Esc on the device list clears the type and never quits.
extension DeviceBrowserTests {
    @Test func escOnTheDeviceListNeverQuits() {
        var browser = loaded()
        press(.escape, on: &browser)
        #expect(browser.outcome == nil)
        press(.character("t"), on: &browser)
        #expect(browser.deviceTab.typeFilter != nil)
        press(.escape, on: &browser)
        #expect(browser.deviceTab.typeFilter == nil && browser.outcome == nil)
        press(.escape, on: &browser)
        #expect(browser.outcome == nil)
        press(.character("q"), on: &browser)
        #expect(browser.outcome == 0)
    }
}

/// Issue 48: another process's change patched in from what the store's history names, without
/// reading the other devices; what a patch cannot say (a pull, a device gone, too many
/// changes) reads the store whole.
@Suite struct DeviceBrowserCatchUpTests: DeviceBrowserTesting {
    func changes(_ named: [Device]?, pending: [Device], seq: Int = 50, lastPull: Date? = fixedNow.addingTimeInterval(-60),
                 total: Int = 5) -> DeviceHistory.ChangesSince {
        DeviceHistory.ChangesSince(seq: seq, lastPull: lastPull, total: total, devices: named, pending: pending)
    }

    @Test func aDeviceAnotherProcessChangedIsPatchedIn() {
        var browser = loaded()
        let day = Date(timeIntervalSince1970: 1_709_543_700)
        let recorded = device("CWM-0012-62", .coldWater, "Kitchen", change: (day, .pending, nil, nil), recorded: 9)
        let pending = snapshot(devices).pending + [recorded]
        #expect(browser.receive(.storeChanged) == [.catchUp(since: 0)])
        #expect(browser.receive(.caughtUp(.success(changes([recorded], pending: pending)))) == [])
        #expect(browser.deviceTab.device("CWM-0012-62") == recorded && !browser.loading)
        #expect(ScreenDriver.screen(&browser, columns: 120).contains("4 pending"))
        #expect(browser.receive(.storeChanged) == [.catchUp(since: 50)], "the next catch-up starts after it")
        // A claim changes a pending device without a history entry: patched from the pending.
        let claimed = Device(id: recorded.id, type: recorded.type, meterPointDescription: recorded.meterPointDescription,
                             serverDate: nil, change: PendingChange(deviceID: recorded.id, installationDate: day, revision: 1,
                                                                    state: .pending, attempts: 0, lastError: nil,
                                                                    recordedAt: recorded.change!.recordedAt, claimedBy: 7))
        #expect(browser.receive(.caughtUp(.success(changes([], pending: pending.dropLast() + [claimed], seq: 51)))) == [])
        #expect(browser.deviceTab.device("CWM-0012-62") == claimed)
    }

    /// A change made here lands between the catch-up's read and its answer: the answer (which
    /// may hold the device as it was) is not applied over it; the catch-up is asked again.
    @Test func aCatchUpOvertakenByAChangeHereIsAskedAgain() {
        var browser = loaded()
        let day = Date(timeIntervalSince1970: 1_709_543_700)
        let before = browser.deviceTab.device("HEA-8127-29")!
        #expect(browser.receive(.storeChanged) == [.catchUp(since: 0)])
        let recorded = device("HEA-8127-29", .heating, "Hallway", change: (day.addingTimeInterval(3_600), .pending, nil, nil), recorded: 2)
        let pendingNow = snapshot(devices).pending.map { $0.id == recorded.id ? recorded : $0 }
        _ = browser.receive(.changed(id: recorded.id, .success(DeviceBrowser.Change(said: "recorded", device: recorded, pending: pendingNow))))
        #expect(browser.deviceTab.device("HEA-8127-29") == recorded)
        // The answer read before the change: the device as it was.
        let stale = changes([], pending: snapshot(devices).pending)
        #expect(before != recorded && stale.pending.contains(before))
        #expect(browser.receive(.caughtUp(.success(stale))) == [.catchUp(since: 0)])
        #expect(browser.deviceTab.device("HEA-8127-29") == recorded, "not patched back")
        #expect(browser.receive(.caughtUp(.success(changes([], pending: pendingNow)))) == [])
        #expect(browser.deviceTab.device("HEA-8127-29") == recorded && !browser.loading)
    }

    @Test func whatAPatchCannotSayReadsTheStoreWhole() {
        let pending = snapshot(devices).pending
        for reason in [changes(nil, pending: pending), changes([], pending: pending, lastPull: fixedNow),
                       changes([], pending: pending, total: 6),
                       changes([device("NEW-0000-01", .heating, "Roof")], pending: pending)] {
            var browser = loaded()
            #expect(browser.receive(.caughtUp(.success(reason))) == [.load])
            #expect(browser.loading)
        }
        var browser = loaded()
        #expect(browser.receive(.caughtUp(.failure(.io(path: "devsync.sqlite", reason: "disk I/O error")))) == [.load])
    }

    /// The open device's detail shows its new state and asks for its history again.
    @Test func theOpenDetailFollows() {
        var browser = loaded()
        press(.enter, on: &browser)
        let open = browser.detail!.device
        let changed = device(open.id, open.type, open.meterPointDescription, change: (nil, .pending, nil, nil), recorded: 9)
        let commands = browser.receive(.caughtUp(.success(changes([changed], pending: snapshot(devices).pending + [changed]))))
        #expect(commands == [.history(id: open.id)] && browser.detail?.device == changed)
    }
}
