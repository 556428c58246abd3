import ScreenKit
import Testing
@testable import DevsyncKit

/// Issue 47: a wide screen shows more of each device: its state from 100 columns, its last
/// error from 120, where 120 columns used to show what 60 did.
@Suite struct DeviceLineTests {
    @Test func wideScreensShowStateAndLastError() {
        #expect(!DeviceLine.header(width: 80, idWidth: 11).contains("STATE"))
        #expect(DeviceLine.header(width: 100, idWidth: 11).contains("STATE") && !DeviceLine.header(width: 100, idWidth: 11).contains("LAST ERROR"))
        let wide = DeviceLine.header(width: 120, idWidth: 11)
        #expect(wide.contains("STATE") && wide.hasSuffix("LAST ERROR") && wide.count <= 120, "\(wide)")
    }
}
