import ScreenKit
import Testing
@testable import PasscodeKit
import ToolboxKit

/// The keypad's keys, without a terminal: each key becomes a command for the session, in
/// order; snapshots and timers come back as messages.
@Suite struct PasscodeScreenTests {
    func ready() -> (PasscodeScreen, PasscodeMachine) {
        var screen = PasscodeScreen()
        do { let value = screen.start(); #expect(value == [.listen, .send(.start)]) }
        var machine = PasscodeMachine()
        _ = machine.handle(.start)
        _ = machine.handle(.codeArrived(call: 1, code: "1234"))
        _ = machine.handle(.setupArrived(call: 1, setup: [3, 9, 0, 7, 1, 8, 2, 6, 5, 4]))
        #expect(machine.acceptsInput)
        _ = screen.receive(.snapshot(PasscodeSession.Snapshot(machine: machine, effects: [], lastError: nil, consecutiveFailures: 0)))
        return (screen, machine)
    }

    @Test func digitsBackspaceEscAndArrowsBecomeSessionEvents() {
        var (screen, _) = ready()
        do { let value = screen.handle(.character("7")); #expect(value == [.send(.digit(7))]) }
        do { let value = screen.handle(.backspace); #expect(value == [.send(.delete)]) }
        do { let value = screen.handle(.escape); #expect(value == [.cancel]) }
        do { let value = screen.handle(.character("x")); #expect(value.isEmpty) }
        #expect(screen.selected == 10)
        _ = screen.handle(.up)
        _ = screen.handle(.left)
        #expect(screen.selected == 6)
        do { let value = screen.handle(.enter); #expect(value == [.send(.digit(screen.machine.layout[6]))]) }
    }

    @Test func aClickPressesTheButtonUnderIt() {
        var (screen, _) = ready()
        var canvas = Canvas(rows: 24, columns: 80)
        screen.draw(into: &canvas)
        let view = KeypadView(width: 80)
        do { let value = screen.handle(.click(row: view.gridTop + 10, column: view.gridLeft + 11 + 3)); #expect(value == [.send(.digit(screen.machine.layout[9]))]) }
        do { let value = screen.handle(.click(row: view.gridTop + 10, column: view.gridLeft + 3)); #expect(value == [.cancel]) }
        do { let value = screen.handle(.click(row: 0, column: 0)); #expect(value.isEmpty) }
    }

    /// Issue 47: "✗ wrong code" stays until the next key, whatever the layout fetch does
    /// meanwhile; after refused credentials no button looks pressable, the selection neither.
    @Test func aWrongCodeStaysUntilTheNextKeyAndRefusalDimsTheKeypad() {
        var (screen, machine) = ready()
        let rejected = PasscodeSession.Snapshot(machine: machine, effects: [.rejected], lastError: nil, consecutiveFailures: 0)
        do { let value = screen.receive(.snapshot(rejected)); #expect(value.isEmpty) }
        _ = screen.receive(.snapshot(PasscodeSession.Snapshot(machine: machine, effects: [], lastError: nil, consecutiveFailures: 0)))
        #expect(screen.feedback?.status == .rejected)
        _ = screen.handle(.character("1"))
        #expect(screen.feedback == nil)
        let view = KeypadView(width: 80, height: 24)
        var canvas = Canvas(rows: 24, columns: 80)
        view.draw(into: &canvas, machine: PasscodeMachine(), selected: 10, status: .error("credentials refused (u)", retrying: false), hint: "")
        #expect(!(0..<24).contains { row in (0..<80).contains { canvas[row, $0].style.reverse } }, "nothing is drawn selected")
    }

    @Test func qQuitsAndAGateCancels() {
        var (screen, _) = ready()
        _ = screen.handle(.character("q"))
        #expect(screen.outcome == .quit)
        var gate = PasscodeScreen(gate: GateOptions(once: true))
        _ = gate.handle(.control("d"))
        #expect(gate.outcome == .cancelled)
    }

    @Test func feedbackShowsUntilItsOwnTimerEnds() {
        var (screen, machine) = ready()
        let unlocked = PasscodeSession.Snapshot(machine: machine, effects: [.unlocked], lastError: nil, consecutiveFailures: 0)
        do { let value = screen.receive(.snapshot(unlocked)); #expect(value == [.feedbackTimer(token: 1)]) }
        do { let value = screen.receive(.snapshot(unlocked)); #expect(value == [.feedbackTimer(token: 2)]) }
        _ = screen.receive(.feedbackOver(token: 1))
        #expect(screen.feedback?.status == .unlocked)
        _ = screen.receive(.feedbackOver(token: 2))
        #expect(screen.feedback == nil)
        _ = machine.handle(.digit(1))
        var canvas = Canvas(rows: 24, columns: 80)
        screen.draw(into: &canvas)
        #expect(!canvas.text.contains("unlocked"))
    }

    @Test func aGateEndsAtTheFirstUnlockOrAfterTooManyFailures() {
        var gate = PasscodeScreen(gate: GateOptions(once: true, maxFailures: 1))
        _ = gate.start()
        _ = gate.receive(.snapshot(.init(machine: PasscodeMachine(), effects: [], lastError: .timedOut(url: "u", seconds: 1), consecutiveFailures: 2)))
        #expect(gate.outcome == .gaveUp(.timedOut(url: "u", seconds: 1)))
        var other = PasscodeScreen(gate: GateOptions(once: true))
        _ = other.receive(.snapshot(.init(machine: PasscodeMachine(), effects: [.unlocked], lastError: nil, consecutiveFailures: 0)))
        #expect(other.outcome == .unlocked)
        var refused = PasscodeScreen(gate: GateOptions(once: true))
        _ = refused.receive(.refused)
        #expect(refused.outcome == .cancelled)
    }

    /// Issue 47: after refused credentials the screen (not a gate) waits for the user; `q`
    /// then ends with the error's status, as script mode does (77), not 0. A failure that
    /// passes (a timeout, retried) leaves `q` a plain quit.
    @Test func quittingAfterRefusedCredentialsEndsWithTheirStatus() {
        var screen = PasscodeScreen(gate: GateOptions())
        _ = screen.start()
        var refused = PasscodeSession.Snapshot(machine: PasscodeMachine(), effects: [], lastError: .credentialsRefused(url: "u"), consecutiveFailures: 1)
        refused.isPermanentFailure = true
        _ = screen.receive(.snapshot(refused))
        #expect(screen.outcome == nil)
        _ = screen.handle(.character("q"))
        #expect(screen.outcome == .gaveUp(.credentialsRefused(url: "u")))
        #expect(screen.outcome?.exitStatus == 77)
        var passing = PasscodeScreen(gate: GateOptions())
        _ = passing.start()
        _ = passing.receive(.snapshot(.init(machine: PasscodeMachine(), effects: [], lastError: .timedOut(url: "u", seconds: 1), consecutiveFailures: 1)))
        _ = passing.handle(.character("q"))
        #expect(passing.outcome == .quit)
    }

    @Test func onlyTheNewestIdleTimerEndsTheScreen() {
        var screen = PasscodeScreen(gate: GateOptions(idleTimeout: 5))
        do { let value = screen.start(); #expect(value.last == .idleTimer(token: 1)) }
        do { let value = screen.handle(.character("1")); #expect(value == [.idleTimer(token: 2), .send(.digit(1))]) }
        _ = screen.receive(.idle(token: 1))
        #expect(screen.outcome == nil)
        _ = screen.receive(.idle(token: 2))
        #expect(screen.outcome == .timedOut)
    }

    @Test func theSpinnerTurnsOnlyWhileLoading() {
        let (screen, _) = ready()
        #expect(!screen.isBusy)
        #expect(PasscodeScreen().isBusy)
    }
}
