import FoundationEssentials
import ScreenDriver
import ScreenKit
import Testing
import ToolboxKit
@testable import DevsyncKit

let fixedNow = Date(timeIntervalSince1970: 1_732_000_000)

/// What the screens' tests share: a few devices in every state, a browser showing them, and
/// its screen as text.
protocol DeviceBrowserTesting {}

extension DeviceBrowserTesting {
    static var now: Date { fixedNow }

    func device(_ id: String, _ type: DeviceType, _ description: String, server: Date? = nil,
                change: (date: Date?, state: PendingChange.State, error: String?, conflict: Date??)? = nil,
                recorded: Double = 0) -> Device {
        Device(id: id, type: type, meterPointDescription: description, serverDate: server, change: change.map {
            PendingChange(deviceID: id, installationDate: $0.date, revision: 1, state: $0.state, attempts: $0.error == nil ? 0 : 2,
                          lastError: $0.error, recordedAt: Date(timeIntervalSince1970: 1_731_000_000 + recorded), claimedBy: nil,
                          serverChange: $0.conflict.map { PendingChange.ServerChange(installationDate: $0) })
        })
    }

    var devices: [Device] {
        let day = Date(timeIntervalSince1970: 1_709_543_700)
        return [
            device("CWM-0012-62", .coldWater, "Kitchen"),
            device("HEA-8127-29", .heating, "Hallway", change: (day, .pending, "HTTP 500", nil), recorded: 2),
            device("HEA-9000-01", .heating, "Attic", server: day, change: (nil, .pending, nil, .some(day.addingTimeInterval(86_400))), recorded: 1),
            device("WWM-0001-12", .warmWater, "Bathroom", server: day),
            device("WWM-0002-13", .warmWater, "Basement", change: (day, .rejected, "unknown field", nil), recorded: 3),
        ]
    }

    func snapshot(_ devices: [Device]) -> DeviceBrowser.Snapshot {
        DeviceBrowser.Snapshot(devices: devices, pending: devices.filter { $0.change != nil }
            .sorted { $0.change!.recordedAt < $1.change!.recordedAt }, lastPull: Self.now.addingTimeInterval(-60))
    }

    func loaded() -> DeviceBrowser {
        var browser = DeviceBrowser(server: "http://127.0.0.1:8107", now: { fixedNow })
        do { let commands = browser.start(); #expect(commands == [.load, .pull, .watchStore]) }
        #expect(browser.isBusy)
        _ = browser.receive(.loaded(.success(snapshot(devices))))
        return browser
    }


    /// The keys' commands, all of them.
    @discardableResult
    func press(_ keys: KeyPress..., on browser: inout DeviceBrowser) -> [DeviceBrowser.Command] {
        keys.flatMap { browser.handle($0) }
    }


    /// The row of the screen that holds `text`.
    func line(_ text: String, in screen: String) -> String {
        screen.split(separator: "\n").first { $0.contains(text) }.map(String.init) ?? ""
    }
}
