import Testing
import Synchronization
@testable import CoreKit

/// `HandoffQueue`: one thread puts, another takes, in order, never more than `capacity`
/// waiting; `cancel` lets a blocked `put` go and drops what comes after, while what waits and
/// an `always` element (the end) are still taken.
@Suite struct HandoffQueueTests {
    @Test func everyElementArrivesInOrderPastTheCapacity() async {
        let queue = HandoffQueue<Int>(capacity: 3)
        let count = 5_000
        PosixThread.start {
            for value in 0..<count { queue.put(value) }
            queue.put(-1, always: true)
        }
        let taken = await PosixThread.run { () -> [Int] in
            var taken: [Int] = []
            while true {
                let value = queue.take()
                if value < 0 { return taken }
                taken.append(value)
            }
        }
        #expect(taken == Array(0..<count))
    }

    /// A putter blocked on a full queue returns false once the taker cancels; the end, put
    /// `always`, still arrives after what was waiting.
    @Test func cancelReleasesTheBlockedPutterAndKeepsTheEnd() async {
        let queue = HandoffQueue<Int>(capacity: 2)
        let refused = Atomic<Int>(0)
        PosixThread.start {
            for value in 0..<100 where !queue.put(value) { refused.add(1, ordering: .relaxed) }
            queue.put(-1, always: true)
        }
        let taken = await PosixThread.run { () -> [Int] in
            var taken = [queue.take()]
            queue.cancel()
            while true {
                let value = queue.take()
                taken.append(value)
                if value < 0 { return taken }
            }
        }
        #expect(taken.first == 0 && taken.last == -1)
        // At most what could wait when cancel came (2) and the one put in the race, then the end.
        #expect(taken.count <= 5, "\(taken)")
        #expect(refused.load(ordering: .relaxed) + taken.count - 1 == 100)
    }
}
