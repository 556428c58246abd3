#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// How work done elsewhere reaches the terminal's thread: messages queue here and a byte
/// written to a pipe wakes the thread's poll(2), so it sleeps while nothing happens and never
/// misses a message. Any thread or task may post.
public final class Mailbox<Message: Sendable>: Sendable {
    private let queue = Mutex<[Message]>([])
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(ScreenError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw .cannotStart("cannot create a pipe (\(errno))") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    public func post(_ message: Message) {
        queue.withLock { $0.append(message) }
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up: the thread will drain the queue anyway.
        _ = write(writeEnd, &byte, 1)
    }

    /// Takes every queued message, and empties the pipe.
    func drain() -> [Message] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
        return queue.withLock { messages in
            defer { messages = [] }
            return messages
        }
    }
}
