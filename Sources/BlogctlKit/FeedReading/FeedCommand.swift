#if canImport(Glibc)
import Glibc
#endif
import ToolboxKit
import BlogctlEngines

/// newsboat's command feeds, as its urls file writes them: `exec:COMMAND` (the command's
/// output is the feed) and `filter:COMMAND:URL` (the feed at URL, fetched as any other, read
/// through the command). A command runs as newsboat runs it, `/bin/sh -c COMMAND`; only a
/// urls file that passes the trust rule is read at all, so only its owner's commands run.
/// Its output is bounded as a response is, and it is ended when it takes longer than a
/// request may.
public enum FeedCommand: Sendable, Equatable {
    case exec(String)
    case filter(String, url: String)

    /// The command feed a urls-file line's first word names, if it names one.
    public init?(_ word: String) {
        if word.utf8.starts(with: "exec:".utf8) {
            let command = String(decoding: word.utf8.dropFirst(5), as: UTF8.self)
            guard command.contains(where: { !$0.isWhitespace }) else { return nil }
            self = .exec(command)
        } else if word.utf8.starts(with: "filter:".utf8) {
            // The command ends where the URL starts: newsboat's `filter:PATH:URL`, whose path
            // may hold a colon of its own.
            let rest = Array(word.utf8.dropFirst(7))
            guard let colon = rest.indices.first(where: { index in
                [":http://", ":https://"].contains { rest[index...].starts(with: $0.utf8) }
            }) else { return nil }
            let command = String(decoding: rest[..<colon], as: UTF8.self)
            let url = String(decoding: rest[(colon + 1)...], as: UTF8.self)
            guard command.contains(where: { !$0.isWhitespace }), (try? ServerURL(url, allowingQuery: true)) != nil else { return nil }
            self = .filter(command, url: url)
        } else {
            return nil
        }
    }

    /// The name its entries are kept under in the library and the cache: a URL of a reserved
    /// host (RFC 2606's `.invalid`) that no request is ever sent to, the command in its path.
    public var server: ServerURL {
        func encoded(_ text: String) -> String {
            PercentEncoding.encode(text) { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-._~".utf8.contains(byte)
            }
        }
        let url = switch self {
        case .exec(let command): "http://exec.invalid/" + encoded(command)
        case .filter(let command, let feed): "http://filter.invalid/" + encoded(command) + "/" + encoded(feed)
        }
        // Every byte but the unreserved ones is escaped: the URL is always one.
        return try! ServerURL(url, allowingQuery: true)
    }

    /// The command feed `server` names (`server`'s inverse), if it is one.
    public init?(server: ServerURL) {
        let path = server.resource.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst(3)
        let parts = path.map { PercentEncoding.decode(String(decoding: $0, as: UTF8.self)) }
        switch (server.host, parts.count) {
        case ("exec.invalid", 1): guard let command = parts[0] else { return nil }; self = .exec(command)
        case ("filter.invalid", 2): guard let command = parts[0], let url = parts[1] else { return nil }; self = .filter(command, url: url)
        default: return nil
        }
    }

    /// As the urls file writes it, for messages.
    public var line: String {
        switch self {
        case .exec(let command): "exec:" + command
        case .filter(let command, let url): "filter:" + command + ":" + url
        }
    }

    /// The feed document as a response, asked every time (a command has no validators): an
    /// exec's output, or a filter's feed, fetched by `fetch` as any feed is and inflated, read
    /// through its command; and the URL its relative links resolve against (the filter's; an
    /// exec feed has none, so they resolve to nothing).
    func document(limit: Int, seconds: Double,
                  fetch: (String) async throws(ToolError) -> APIClient.Response) async throws(ToolError) -> (APIClient.Response, String) {
        var input: [UInt8] = []
        var base = ""
        if case .filter(_, let feed) = self {
            let response = try await fetch(feed)
            input = try FeedBody.decoded(response, shown: ServerURL.redactedIfCredentials(feed))
            base = response.redirectedTo ?? feed
        }
        return (APIClient.Response(local: try await output(input: input, limit: limit, seconds: seconds)), base)
    }

    /// The feed document: the command's output, `input` on its standard input (a filter's
    /// fetched feed; nothing for exec). Refused past `limit` bytes or `seconds`, or when it
    /// does not exit 0, with the first line it wrote on stderr.
    func output(input: [UInt8], limit: Int, seconds: Double) async throws(ToolError) -> [UInt8] {
        let command = switch self { case .exec(let command), .filter(let command, _): command }
        let result = await PosixThread.run { Self.run(command, input: input, limit: limit, seconds: seconds) }
        switch result {
        case .success(let output): return output
        // Said beside the feed's name (its row, its warning), which is its line when it has none.
        case .failure(let reason): throw .tryLater("the command " + reason.message)
        }
    }

    struct Failure: Error { let message: String }

    /// `/bin/sh -c command`, its stdin fed by a thread of its own while its output and stderr
    /// are read (a command that fills one pipe while the other waits would never end).
    private static func run(_ command: String, input: [UInt8], limit: Int, seconds: Double) -> Result<[UInt8], Failure> {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0, pipe(&errors) == 0 else {
            let reason = String(cString: strerror(errno))
            for fd in toChild + fromChild + errors where fd >= 0 { close(fd) }
            return .failure(Failure(message: "could not be given a pipe: " + reason))
        }
        // Ours alone: a pager or browser started meanwhile must not hold a feed command's pipe.
        for fd in toChild + fromChild + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        guard let child = ChildProcess.start(["/bin/sh", "-c", command], input: .descriptor(toChild[0]), output: .descriptor(fromChild[1]),
                                             errors: .descriptor(errors[1]), ownGroup: true) else {
            for fd in toChild + fromChild + errors { close(fd) }
            return .failure(Failure(message: "could not be started (/bin/sh)"))
        }
        close(toChild[0]); close(fromChild[1]); close(errors[1])
        let writer = toChild[1], reader = fromChild[0], errorReader = errors[0]
        PosixThread.start {
            // A command that stops reading is EPIPE here, not a SIGPIPE that ends this process
            // (blocked in this thread alone, it is dropped with the thread).
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            input.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(writer, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { break }
                    offset += written
                }
            }
            close(writer)
        }
        var output: [UInt8] = []
        var said: [UInt8] = []
        var failure: String?
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        // Its output and its stderr read as they come, until the output ends.
        var open = [reader, errorReader]
        while open.contains(reader) {
            let left = deadline - .now
            guard left > .zero else {
                failure = "did not end within \(Int(seconds.rounded(.up))) s; stopped"
                break
            }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), Int32(min(left.components.seconds * 1000 + 1, Int64(Int32.max))))
            if ready < 0 && errno == EINTR { continue }
            for entry in polled where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    open.removeAll { $0 == entry.fd }
                    continue
                }
                if entry.fd == errorReader {
                    if said.count < 4096 { said += buffer[..<count] }
                } else if output.count + count > limit {
                    failure = "wrote more than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit) bytes"); stopped"
                } else {
                    output += buffer[..<count]
                }
            }
            if failure != nil { break }
        }
        close(reader)
        if failure != nil { child.killGroup() }
        let ending = child.wait()
        // What it said on stderr and has not been read yet: it has exited, so no more is coming
        // from it (a child of its own that still holds the pipe is not waited for).
        if open.contains(errorReader) {
            var polled = pollfd(fd: errorReader, events: Int16(POLLIN), revents: 0)
            while said.count < 4096, poll(&polled, 1, 0) > 0, case let count = read(errorReader, &buffer, buffer.count), count > 0 {
                said += buffer[..<count]
            }
        }
        close(errorReader)
        if let failure { return .failure(Failure(message: failure)) }
        guard ending.succeeded else {
            let first = String(decoding: said, as: UTF8.self).split(whereSeparator: \.isNewline).first.map { Terminal.sanitizeField(String($0)) }
            let how = switch ending {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "ended by signal \(signal)"
            }
            return .failure(Failure(message: how + (first.map { ": " + String($0.prefix(200)) } ?? "")))
        }
        return .success(output)
    }
}

extension Subscription {
    /// The server its entries are kept under: its URL's; for newsboat's `exec:` and `filter:`
    /// feeds (`FeedCommand`), a name of their own that no request is sent to. Nil for a line
    /// that is neither.
    public var server: ServerURL? { Self.server(for: url) }

    public static func server(for url: String) -> ServerURL? { try? requiredServer(for: url) }

    /// `server(for:)`, or why `url` names none.
    public static func requiredServer(for url: String) throws(ToolError) -> ServerURL {
        if let command = FeedCommand(url) { return command.server }
        return try ServerURL(url, allowingQuery: true)
    }
}
