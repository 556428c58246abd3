import Synchronization
import Testing
@testable import CoreKit
@testable import ToolboxKit

@Suite struct TaskWindowTests {
    /// How many jobs run at once, and the most that ever did.
    final class InFlight: Sendable {
        let state = Mutex((now: 0, most: 0, started: 0))
        func enter() { state.withLock { $0.now += 1; $0.started += 1; $0.most = max($0.most, $0.now) } }
        func leave() { state.withLock { $0.now -= 1 } }
        var most: Int { state.withLock { $0.most } }
        var started: Int { state.withLock { $0.started } }
    }

    @Test func outputsComeBackInTheOrderOfTheItems() async {
        var generator = SeededGenerator(seed: 29)
        let delays = (0..<200).map { _ in Int.random(in: 0...5, using: &generator) }
        let outputs = await TaskWindow.map(Array(delays.indices), width: 7) { index in
            for _ in 0..<delays[index] { await Task.yield() }
            return index * 2
        }
        #expect(outputs == delays.indices.map { $0 * 2 })
    }

    @Test(arguments: [1, 3, 16])
    func neverMoreThanTheWidthRunAtOnce(width: Int) async {
        let inFlight = InFlight()
        var progress: [Int] = []
        _ = await TaskWindow.map(Array(0..<100), width: width, progress: { done, total in
            #expect(total == 100)
            progress.append(done)
        }) { item in
            inFlight.enter()
            for _ in 0..<(item % 4) { await Task.yield() }
            inFlight.leave()
            return item
        }
        #expect(inFlight.most <= width)
        #expect(inFlight.most >= 1)
        #expect(progress == Array(1...100))
    }

    @Test func aWidthBelowOneStillRunsOneAtATime() async {
        let inFlight = InFlight()
        let outputs = await TaskWindow.map([1, 2, 3], width: 0) { item in
            inFlight.enter(); defer { inFlight.leave() }
            return item
        }
        #expect(outputs == [1, 2, 3])
        #expect(inFlight.most == 1)
    }

    /// Opened once; whoever waits before then resumes then.
    final class Gate: Sendable {
        let state = Mutex((open: false, waiting: [CheckedContinuation<Void, Never>]()))
        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.open { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        func open() {
            for waiter in state.withLock({ state in state.open = true; defer { state.waiting = [] }; return state.waiting }) { waiter.resume() }
        }
    }

    @Test func refusingAnOutputStartsNoFurtherItem() async {
        // Item 0 is refused while item 1 runs beside it (held until the refusal, so the order
        // is the same on any machine; a finished item 1 would rightly start item 2 first).
        let inFlight = InFlight()
        let refused = Gate()
        var received: [Int] = []
        await TaskWindow.run(Array(0..<50), width: 2, work: { item -> Int in
            inFlight.enter(); defer { inFlight.leave() }
            if item != 0 { await refused.wait() }
            return item
        }) { _, output in
            received.append(output)
            if output == 0 { refused.open() }
            return output != 0
        }
        // Nothing started after the refusal; item 1, already running, completed and was received.
        #expect(inFlight.started == 2)
        #expect(received == [0, 1])
    }

    @Test func noItemsIsNoWork() async {
        let outputs = await TaskWindow.map([Int](), width: 4) { $0 }
        #expect(outputs.isEmpty)
    }
}
