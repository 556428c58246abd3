import ScreenDriver
import ScreenKit
import Testing
import ToolboxKit
@testable import DevsyncKit

/// `devsync ui`'s three screens as whole frames at 60×16, 80×24 and 120×40 (issue 47: the
/// state and last error columns), and its help; and the list with a filter in force.
@Suite struct DeviceFrameTests: DeviceBrowserTesting {
    @Test func devicesSyncDetailAndHelp() {
        for (rows, columns) in [(16, 60), (24, 80), (40, 120)] {
            var driver = ScreenDriver(DeviceBrowser(server: "http://127.0.0.1:8107", now: { fixedNow }), rows: rows, columns: columns)
            #expect(driver.commands == [.load, .pull, .watchStore])
            driver.receive(.loaded(.success(snapshot(devices))))
            driver.receive(.pulled(.failure(.unreachable(url: "http://127.0.0.1:8107/devices", reason: "connection refused"))))
            #expect(GoldenFrame.matches(driver.frame, named: "devices-\(columns)x\(rows)"))
            driver.press(.tab)
            #expect(GoldenFrame.matches(driver.frame, named: "sync-\(columns)x\(rows)"))
            driver.press(.tab, .down, .enter)
            driver.receive(.history(id: driver.program.detail!.device.id, .success([])))
            #expect(GoldenFrame.matches(driver.frame, named: "detail-\(columns)x\(rows)"))
            driver.press(.character("?"))
            #expect(GoldenFrame.matches(driver.frame, named: "detail-help-\(columns)x\(rows)"))
        }
    }

    /// Issue 47: a filter in force is named in the status line, beside what it leaves.
    @Test func aFilterInForceIsNamed() {
        var driver = ScreenDriver(DeviceBrowser(server: "http://127.0.0.1:8107", now: { fixedNow }), rows: 16, columns: 60)
        driver.receive(.loaded(.success(snapshot(devices))))
        driver.press(.character("/"), .character("k"), .character("i"), .enter)
        #expect(GoldenFrame.matches(driver.frame, named: "devices-filtered-60x16"))
    }

    /// Item 9: a commit by another process makes the screen catch up with the store's
    /// history (issue 48: patched, not read whole); while a read is under way, read again.
    @Test func anotherProcesssChangeIsRead() {
        var driver = ScreenDriver(DeviceBrowser(server: "http://127.0.0.1:8107", now: { fixedNow }))
        var first = snapshot(devices)
        first.historySeq = 41
        driver.receive(.loaded(.success(first)))
        #expect(driver.receive(.storeChanged) == [.catchUp(since: 41)])
        var reading = ScreenDriver(DeviceBrowser(server: "http://127.0.0.1:8107", now: { fixedNow }))
        #expect(reading.receive(.storeChanged) == [.load])
    }
}
