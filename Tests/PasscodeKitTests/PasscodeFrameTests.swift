import ScreenDriver
import ScreenKit
import Testing
@testable import PasscodeKit

/// The keypad as whole frames at 60×16 and 80×24, and its help.
@Suite struct PasscodeFrameTests {
    @Test func theKeypadTwoDigitsInAndItsHelp() {
        for (rows, columns) in [(16, 60), (24, 80)] {
            var driver = ScreenDriver(PasscodeScreen(), rows: rows, columns: columns)
            #expect(driver.commands == [.listen, .send(.start)])
            var machine = PasscodeMachine()
            _ = machine.handle(.start)
            _ = machine.handle(.codeArrived(call: 1, code: "1234"))
            _ = machine.handle(.setupArrived(call: 1, setup: [3, 9, 0, 7, 1, 8, 2, 6, 5, 4]))
            _ = machine.handle(.digit(3))
            _ = machine.handle(.digit(9))
            driver.receive(.snapshot(PasscodeSession.Snapshot(machine: machine, effects: [], lastError: nil, consecutiveFailures: 0)))
            #expect(GoldenFrame.matches(driver.frame, named: "keypad-\(columns)x\(rows)"))
            #expect(driver.press(.character("?")).isEmpty)
            #expect(GoldenFrame.matches(driver.frame, named: "keypad-help-\(columns)x\(rows)"))
            #expect(driver.press(.character("5")).isEmpty, "the key that closes the help types nothing")
            #expect(driver.press(.character("5")) == [.send(.digit(5))])
        }
    }
}
