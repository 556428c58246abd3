import Foundation
import Synchronization

/// A one-trick HTTP server on a free loopback port: every request gets the same raw bytes
/// (or, with `sequence`, the next answer of a list, the last one repeated). For answers mockd
/// never gives (HTML error pages, broken framing, hostile values, a feed's 304 and 410). It
/// keeps the requests it saw, and with `trickle` sends the answer one byte at a time, slowly.
/// Shared by the unit and end-to-end tests.
public final class StubServer: Sendable {
    public let url: String
    public let port: Int
    private let listener: Int32
    private let seen = Mutex<[String]>([])
    /// Answers given in turn, when the server was made with a sequence.
    private let sequence: Mutex<[[UInt8]]>
    /// While held (`hold`), requests are read and kept but not answered until `release`.
    private let held = Mutex(false)
    private let gate = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    /// The requests so far, head only, as received.
    public var requests: [String] { seen.withLock { $0 } }

    /// `others`: answers for paths that start with a key, sent at once (the rest of a
    /// conversation around the one slow answer).
    public convenience init(response: String, trickle: Duration? = nil, others: [String: String] = [:]) throws {
        try self.init(bytes: Array(response.utf8), trickle: trickle, others: others)
    }

    /// Each request the next of `responses`; once they are spent, the last again.
    public convenience init(sequence responses: [String]) throws {
        try self.init(bytes: Array((responses.first ?? "").utf8), sequence: responses.map { Array($0.utf8) })
    }

    /// An answer that is not text (a gzip body).
    public init(bytes: [UInt8], trickle: Duration? = nil, others: [String: String] = [:], sequence: [[UInt8]] = []) throws {
        self.sequence = Mutex(sequence)
        // Close-on-exec from the start: a child that another test spawns meanwhile must not
        // hold this server's sockets.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        guard let port = bindLoopback(listener), listen(listener, 16) == 0 else {
            close(listener)
            throw StubServerError()
        }
        self.port = port
        url = "http://127.0.0.1:\(port)"
        let fd = listener
        Foundation.Thread.detachNewThread { [self] in
            // The listener is closed here, by the thread that accepts on it, once `stop` has
            // shut it down: closed by `stop`, its number could be another test's socket by
            // the time this loop came back to `accept`.
            defer { close(fd) }
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return
                }
                // (Glibc's module has no accept4.)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                Foundation.Thread.detachNewThread { [self] in serve(client, bytes, trickle, others) }
            }
        }
    }

    private func serve(_ client: Int32, _ bytes: [UInt8], _ trickle: Duration?, _ others: [String: String]) {
        defer { close(client) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        var request: [UInt8] = []
        while request.firstRange(of: [13, 10, 13, 10]) == nil {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            request += buffer[0..<count]
        }
        // A body the request announces is read before the answer, as a server does: closing
        // on unread bytes resets the connection before the client reads the answer.
        let announced = String(decoding: request, as: UTF8.self).split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }.flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
        let headEnd = request.firstRange(of: [13, 10, 13, 10])?.upperBound ?? request.count
        var bodyRead = request.count - headEnd
        while bodyRead < announced {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            bodyRead += count
        }
        let head = String(decoding: request[..<headEnd], as: UTF8.self)
        seen.withLock { $0.append(head) }
        if held.withLock({ $0 }) {
            // Each released request lets the next one go.
            gate.wait()
            gate.signal()
        }
        let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        if let other = others.first(where: { path.hasPrefix($0.key) })?.value {
            _ = Array(other.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            return
        }
        let next: [UInt8]? = sequence.withLock { answers in
            guard let first = answers.first else { return nil }
            if answers.count > 1 { answers.removeFirst() }
            return first
        }
        if let next {
            _ = next.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            return
        }
        guard let trickle else {
            _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            return
        }
        // The head at once, then the body a byte at a time, until the client goes away.
        let split = (bytes.firstRange(of: [13, 10, 13, 10])?.upperBound) ?? bytes.count
        _ = bytes[..<split].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        for byte in bytes[split...] {
            Foundation.Thread.sleep(forTimeInterval: Double(trickle.components.seconds) + Double(trickle.components.attoseconds) / 1e18)
            var one = byte
            if send(client, &one, 1, Int32(MSG_NOSIGNAL)) != 1 { return }
        }
    }

    /// Requests from now on wait for `release` before they are answered (a slow feed whose
    /// request a test wants in flight).
    public func hold() { held.withLock { $0 = true } }

    /// Answers every held request, and those after it at once.
    public func release() {
        held.withLock { $0 = false }
        gate.signal()
    }

    /// Accepts no more connections (the accepting thread then closes the listener).
    public func stop() {
        // Once: a second shutdown could reach another socket that took the number since.
        guard !stopped.withLock({ stopped in defer { stopped = true }; return stopped }) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
    }
}

/// Binds `fd` to a free port on 127.0.0.1; the port, or nil.
public func bindLoopback(_ fd: Int32) -> Int? {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
}

struct StubServerError: Error, CustomStringConvertible {
    var description: String { "stub server: cannot listen on 127.0.0.1" }
}

extension Array where Element == UInt8 {
    public func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
