import Testing
@testable import PasscodeKit

@Suite struct PasscodeMachineTests {
    let setup = [3, 9, 0, 7, 1, 8, 2, 6, 5, 4]

    /// A machine that has started call 1 and received both halves.
    func ready(code: String = "4821") -> PasscodeMachine {
        var machine = PasscodeMachine()
        _ = machine.handle(.start)
        _ = machine.handle(.codeArrived(call: 1, code: code))
        _ = machine.handle(.setupArrived(call: 1, setup: setup))
        return machine
    }

    @Test func rule1TheKeypadStartsOrderedZeroToNine() {
        #expect(PasscodeMachine().layout == Array(0...9))
    }

    @Test func rule2LoadingBlocksInputWithoutQueueingIt() {
        var machine = PasscodeMachine()
        #expect(machine.handle(.start) == [.fetch(call: 1)])
        #expect(!machine.acceptsInput)
        for event in [PasscodeMachine.Event.digit(4), .digit(8), .delete, .cancel] {
            #expect(machine.handle(event) == [])
        }
        _ = machine.handle(.codeArrived(call: 1, code: "4821"))
        _ = machine.handle(.setupArrived(call: 1, setup: setup))
        #expect(machine.progress == 0)  // nothing pressed while loading came through
    }

    @Test func rule3BothHalvesOfTheSameCallInEitherOrder() {
        var codeFirst = PasscodeMachine()
        _ = codeFirst.handle(.start)
        _ = codeFirst.handle(.codeArrived(call: 1, code: "1111"))
        #expect(!codeFirst.acceptsInput)
        _ = codeFirst.handle(.setupArrived(call: 1, setup: setup))
        #expect(codeFirst.acceptsInput)

        var setupFirst = PasscodeMachine()
        _ = setupFirst.handle(.start)
        _ = setupFirst.handle(.setupArrived(call: 1, setup: setup))
        #expect(!setupFirst.acceptsInput)
        #expect(setupFirst.layout == Array(0...9))
        _ = setupFirst.handle(.codeArrived(call: 1, code: "1111"))
        #expect(setupFirst.acceptsInput)
    }

    @Test func rule3ArrivalsFromAnotherCallAreIgnored() {
        var machine = ready(code: "1234")
        for digit in [1, 2, 3, 4] { _ = machine.handle(.digit(digit)) }  // unlock: call 2 starts
        _ = machine.handle(.codeArrived(call: 1, code: "9999"))
        _ = machine.handle(.setupArrived(call: 1, setup: Array(0...9)))
        #expect(!machine.acceptsInput)
        _ = machine.handle(.codeArrived(call: 2, code: "5555"))
        _ = machine.handle(.setupArrived(call: 2, setup: Array((0...9).reversed())))
        #expect(machine.phase == .ready(code: "5555", entered: []))
        #expect(machine.layout == Array((0...9).reversed()))
    }

    @Test func rule4TheKeypadTakesTheSetupsOrder() {
        #expect(ready().layout == setup)
    }

    @Test func rule5ADigitFillsTheNextCircle() {
        var machine = ready()
        _ = machine.handle(.digit(4))
        #expect(machine.progress == 1)
        _ = machine.handle(.digit(8))
        #expect(machine.progress == 2)
    }

    @Test func rule6CancelClearsEverythingAndIsANoOpWhenEmpty() {
        var machine = ready()
        let before = machine
        #expect(machine.handle(.cancel) == [])
        #expect(machine == before)
        _ = machine.handle(.digit(4))
        _ = machine.handle(.digit(8))
        _ = machine.handle(.cancel)
        #expect(machine.progress == 0)
    }

    @Test func rule7DeleteClearsTheLastDigitAndIsANoOpWhenEmpty() {
        var machine = ready()
        let before = machine
        #expect(machine.handle(.delete) == [])
        #expect(machine == before)
        _ = machine.handle(.digit(4))
        _ = machine.handle(.digit(8))
        _ = machine.handle(.delete)
        #expect(machine.phase == .ready(code: "4821", entered: [4]))
    }

    @Test func rule8TheRightCodeUnlocksAndLoadsANewLayout() {
        var machine = ready(code: "4821")
        _ = machine.handle(.digit(4))
        _ = machine.handle(.digit(8))
        _ = machine.handle(.digit(2))
        #expect(machine.handle(.digit(1)) == [.unlocked, .fetch(call: 2)])
        #expect(machine.phase == .loading(call: 2, code: nil, setup: nil))
        #expect(machine.progress == 0)
    }

    @Test func rule8AWrongCodeResetsAndNothingElse() {
        var machine = ready(code: "4821")
        for digit in [1, 1, 1] { _ = machine.handle(.digit(digit)) }
        #expect(machine.handle(.digit(1)) == [.rejected])
        #expect(machine.phase == .ready(code: "4821", entered: []))
        #expect(machine.layout == setup)
    }

    @Test func errorsScheduleRetriesWithGrowingAttempts() {
        var machine = PasscodeMachine()
        _ = machine.handle(.start)
        #expect(machine.handle(.fetchFailed(call: 1, message: "down")) == [.abandon(call: 1), .scheduleRetry(call: 1, attempt: 0)])
        #expect(machine.phase == .failed(call: 1, message: "down"))
        #expect(machine.handle(.digit(3)) == [.fetch(call: 2)])  // a key retries at once
        #expect(machine.handle(.fetchFailed(call: 2, message: "down")) == [.abandon(call: 2), .scheduleRetry(call: 2, attempt: 1)])
        #expect(machine.handle(.retryDue(call: 1)) == [])  // a stale timer
        #expect(machine.handle(.retryDue(call: 2)) == [.fetch(call: 3)])
        _ = machine.handle(.codeArrived(call: 3, code: "0000"))
        _ = machine.handle(.setupArrived(call: 3, setup: setup))
        #expect(machine.acceptsInput)
        _ = machine.handle(.start)
        #expect(machine.handle(.fetchFailed(call: 4, message: "x")).last == .scheduleRetry(call: 4, attempt: 0))
    }

    @Test func malformedHalvesAreErrors() {
        for event in [PasscodeMachine.Event.codeArrived(call: 1, code: "12a4"), .codeArrived(call: 1, code: "12345"),
                      .setupArrived(call: 1, setup: [1, 2, 3]), .setupArrived(call: 1, setup: [0, 0, 1, 2, 3, 4, 5, 6, 7, 8])] {
            var machine = PasscodeMachine()
            _ = machine.handle(.start)
            _ = machine.handle(event)
            guard case .failed = machine.phase else {
                Issue.record("\(event) should fail")
                continue
            }
        }
    }

    @Test func scriptTranscriptLines() {
        var transcript = ScriptTranscript()
        var machine = PasscodeMachine()
        func step(_ event: PasscodeMachine.Event) -> [String] {
            let effects = machine.handle(event)
            return transcript.lines(for: .init(machine: machine, effects: effects, lastError: nil, consecutiveFailures: 0))
        }
        #expect(step(.start) == ["loading"])
        #expect(step(.codeArrived(call: 1, code: "1234")) == [])
        #expect(step(.setupArrived(call: 1, setup: setup)) == ["ready 3 9 0 7 1 8 2 6 5 4"])
        #expect(step(.cancel) == [])
        #expect(step(.digit(1)) == ["progress 1"])
        #expect(step(.delete) == ["progress 0"])
        for digit in [9, 9, 9] { _ = step(.digit(digit)) }
        #expect(step(.digit(9)) == ["rejected"])
        for digit in [1, 2, 3] { _ = step(.digit(digit)) }
        #expect(step(.digit(4)) == ["unlocked", "loading"])
        #expect(step(.fetchFailed(call: 2, message: "server down")) == ["error server down"])
        #expect(step(.retryDue(call: 2)) == ["loading"])
    }
}
