import Synchronization
import Testing
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

    @Test func refusingAnOutputStartsNoFurtherItem() async {
        let inFlight = InFlight()
        var received: [Int] = []
        await TaskWindow.run(Array(0..<50), width: 2, work: { item -> Int in
            inFlight.enter(); defer { inFlight.leave() }
            return item
        }) { _, output in
            received.append(output)
            return output != 0
        }
        // Item 0 was refused; only item 1, already running beside it, may have completed too.
        #expect(inFlight.started <= 2)
        #expect(received.count == inFlight.started)
        #expect(received.contains(0))
    }

    @Test func noItemsIsNoWork() async {
        let outputs = await TaskWindow.map([Int](), width: 4) { $0 }
        #expect(outputs.isEmpty)
    }
}
