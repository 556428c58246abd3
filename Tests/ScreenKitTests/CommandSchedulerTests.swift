#if canImport(Glibc)
import Glibc
#endif
import Testing
import CoreKit
@testable import ScreenKit

/// The command policies as the runner applies them, and the mailbox work answers through:
/// `.latest` cancels the one before in its slot, `.serial` keeps order, a clean exit waits
/// for every serial command, and no message posted from any thread is lost.
@Suite struct CommandSchedulerTests {
    enum Command: ScreenCommand, Equatable {
        /// Runs until cancelled, then says so.
        case untilCancelled(Int)
        /// Says its number after yielding a few times (work that takes a while).
        case write(Int)

        var policy: CommandPolicy {
            switch self {
            case .untilCancelled: .latest("slot")
            case .write: .serial("writes")
            }
        }
    }

    enum Message: Sendable, Equatable {
        case cancelled(Int)
        case wrote(Int)
    }

    typealias Box = Mailbox<ScreenRunner.Event<Message>>

    func scheduler(_ mailbox: Box) -> CommandScheduler<Command, Message> {
        CommandScheduler(poster: ScreenRunner.Poster(mailbox: mailbox)) { command, poster in
            switch command {
            case .untilCancelled(let number):
                // A stream nobody writes to: iterating it ends only when the task is cancelled.
                let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
                for await _ in stream {}
                continuation.finish()
                poster.post(.cancelled(number))
            case .write(let number):
                for _ in 0..<(number % 7) { await Task.yield() }
                poster.post(.wrote(number))
            }
        }
    }

    /// Waits in poll(2) on a thread of its own, as the screen's thread does (never on one of
    /// the few threads tasks share, which the work needs), until `count` messages came, or
    /// twenty minutes passed: a watchdog, not a timing assertion. Long, because in the whole
    /// suite the end-to-end tests wait on those shared threads too, and the work here may
    /// not start until they are done.
    func messages(_ mailbox: Box, count: Int) async -> [Message] {
        await withCheckedContinuation { continuation in
            PosixThread.start {
                var received: [Message] = []
                let deadline = ContinuousClock.now + .seconds(1200)
                while received.count < count, ContinuousClock.now < deadline {
                    var fds = [pollfd(fd: mailbox.readEnd, events: Int16(POLLIN), revents: 0)]
                    _ = poll(&fds, 1, 1000)
                    for event in mailbox.drain() { if case .message(let message) = event { received.append(message) } }
                }
                continuation.resume(returning: received)
            }
        }
    }

    @Test func aLatestCommandCancelsTheOneBeforeInItsSlot() async {
        let mailbox = try! Box()
        let scheduler = scheduler(mailbox)
        scheduler.start([.untilCancelled(1)])
        scheduler.start([.untilCancelled(2)])
        #expect(await messages(mailbox, count: 1) == [.cancelled(1)])
        scheduler.stop()
        #expect(await messages(mailbox, count: 1) == [.cancelled(2)], "stop cancels the latest work too")
    }

    @Test func serialCommandsRunInOrderAndACleanExitWaitsForThemAll() async {
        let mailbox = try! Box()
        let scheduler = scheduler(mailbox)
        for number in 0..<200 { scheduler.start([.write(number)]) }
        scheduler.stop()
        await scheduler.drained()
        // Every write is done when `drained` returns: all 200 are in the mailbox already.
        let written = mailbox.drain().compactMap { event -> Int? in
            if case .message(.wrote(let number)) = event { number } else { nil }
        }
        #expect(written == Array(0..<200))
    }

    @Test func noMessageFromAnyThreadIsLostAndEachThreadsOrderHolds() async {
        let mailbox = try! Box()
        let threads = 8
        let each = 2_000
        for thread in 0..<threads {
            PosixThread.start {
                for index in 0..<each { mailbox.post(.message(.wrote(thread * each + index))) }
            }
        }
        let received = await messages(mailbox, count: threads * each)
        #expect(received.count == threads * each)
        for thread in 0..<threads {
            let mine = received.compactMap { message -> Int? in
                guard case .wrote(let number) = message, number / each == thread else { return nil }
                return number
            }
            #expect(mine == Array(thread * each..<(thread + 1) * each))
        }
    }
}
