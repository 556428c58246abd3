import AsyncAlgorithms
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Downloads whose body is used as it arrives and never held (a post of a gigabyte): retried
/// as `send` retries, from the start, after `restart` has thrown away what the try before
/// had consumed. Every download has an end (`Pace`). (`APIClient.download`)
public struct APIDownload: Sendable {
    /// The client the download goes through: its server, retries, timeout and log.
    let client: APIClient

    /// How long a download may last. `.whole`: all of it, retries included, within the
    /// timeout, however the bytes come (a server trickling one byte a second included).
    /// `.minimumRate`: while a progress bar shows, it may take longer as long as it moves:
    /// fewer than `minimumRate` bytes a second over any `timeout` seconds ends it, as curl's
    /// `--speed-limit` and `--speed-time` do.
    public enum Pace: Sendable {
        case whole
        case minimumRate
    }

    /// Bytes a second a download with progress must keep up over `timeout` seconds.
    public static let minimumRate = 1024

    /// Sends `method` for `path` and hands a 2xx answer's body to `consume` piece by piece,
    /// `progress` seeing the bytes and the total once known, `answered` the head of a 2xx
    /// answer before its body (a resumed download learns whether it got the rest or all). A body past `maxBytes` is a
    /// protocol violation. Any other status comes back with at most 64 KiB of its body, for
    /// its message; a 5xx, a connection error or a timeout is retried (`restart` first) when
    /// the method is idempotent.
    public func stream(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], maxBytes: Int,
                       pace: Pace = .whole,
                       progress: (Int64, Int64?) -> Void = { _, _ in }, answered: (APIResponse) throws -> Void = { _ in },
                       restart: () -> Void, consume: (UnsafeRawBufferPointer) throws -> Void) async throws(ToolError) -> APIResponse {
        let url = client.server.url(path)
        let policy = [.GET, .HEAD].contains(method) ? client.retryPolicy : RetryPolicy(retries: 0)
        let deadline: ContinuousClock.Instant? = pace == .whole ? .now + .milliseconds(Int64(client.timeout * 1000)) : nil
        do {
            return try await policy.run(
                isRetryable: { error in
                    if let deadline, deadline - .now < .milliseconds(100) { return false }
                    return NetworkFailure.isTransient(client.describe(error, url: url))
                },
                onRetry: { [client] attempt, error, wait in
                    client.log("* retry \(attempt) of \(policy.retries) in \(Int(wait * 1000)) ms after: \(client.describe(error, url: url).message)")
                },
                operation: { attempt in
                    if attempt > 0 { restart() }
                    let start = ContinuousClock.now
                    client.log("> \(method.rawValue) \(url)")
                    var status = 0
                    var reason = ""
                    var answerHeaders = HTTPHeaders()
                    var expected: Int64?
                    var total: Int64 = 0
                    var kept = ByteBuffer()
                    try await relay(method, path, headers: headers, url: url, deadline: deadline) { piece in
                        switch piece {
                        case .head(let head):
                            status = Int(head.status.code)
                            reason = head.status.reasonPhrase
                            answerHeaders = head.headers
                            expected = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
                            if (200..<300).contains(status) {
                                if let expected, expected > Int64(maxBytes) {
                                    throw ToolError.protocolViolation(url: url, detail: "a body of \(expected) bytes, over the limit of \(maxBytes)")
                                }
                                try answered(APIResponse(status: status, headers: answerHeaders, body: ByteBuffer()))
                                progress(0, expected)
                            }
                        case .chunk(let chunk):
                            total += Int64(chunk.readableBytes)
                            if (200..<300).contains(status) {
                                guard total <= Int64(maxBytes) else {
                                    throw ToolError.protocolViolation(url: url, detail: "a body larger than the limit of \(maxBytes) bytes")
                                }
                                try chunk.withUnsafeReadableBytes { try consume($0) }
                                progress(total, expected)
                            } else if kept.readableBytes < 1 << 16 {
                                var chunk = chunk
                                kept.writeBuffer(&chunk)
                            }
                        }
                    }
                    client.log("< \(status) \(reason) (\(Elapsed.milliseconds(since: start)) ms, \(total) bytes)")
                    if status >= 500 {
                        let answer = APIResponse(status: status, headers: answerHeaders, body: kept)
                        throw ToolError.httpStatus(url: url, status: status, message: answer.summary)
                    }
                    return APIResponse(status: status, headers: answerHeaders, body: kept)
                })
        } catch {
            throw await client.explained(client.describe(error, url: url))
        }
    }

    /// What `relay` hands over: the answer's head, then its body's chunks.
    enum Piece: Sendable {
        case head(HTTPClientResponse)
        case chunk(ByteBuffer)
    }

    /// Runs one request in a task of its own and hands its head and chunks to `receive` here,
    /// one at a time (the network waits while `receive` works: memory stays one chunk), while a
    /// watchdog ends it: at `deadline` whatever it waits for, or, with no deadline, when fewer
    /// than `minimumRate` bytes a second came in the last `timeout` seconds. `receive` runs in
    /// the caller's task, so it may hold what is not Sendable (a parser, a cache writer).
    func relay(_ method: HTTPMethod, _ path: String, headers: [(String, String)], url: String,
               deadline: ContinuousClock.Instant?, receive: (Piece) throws -> Void) async throws {
        let channel = AsyncThrowingChannel<Piece, any Error>()
        let received = ByteCount()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    let response = try await client.execute(method, path, headers: headers, body: nil)
                    await channel.send(.head(response))
                    for try await chunk in response.body {
                        try Task.checkCancellation()
                        await channel.send(.chunk(chunk))
                    }
                    channel.finish()
                } catch {
                    channel.fail(error)
                }
            }
            group.addTask { [timeout = client.timeout] in
                if let deadline {
                    try await Task.sleep(until: deadline, clock: .continuous)
                    channel.fail(ToolError.timedOut(url: url, seconds: timeout))
                    return
                }
                let window = Duration.milliseconds(Int64(max(timeout, 0.001) * 1000))
                var before = received.value.withLock { $0 }
                while true {
                    try await Task.sleep(for: window)
                    let now = received.value.withLock { $0 }
                    if Double(now - before) < Double(Self.minimumRate) * timeout {
                        channel.fail(ToolError.tooSlow(url: url, bytesPerSecond: Self.minimumRate, seconds: timeout))
                        return
                    }
                    before = now
                }
            }
            defer { group.cancelAll() }
            for try await piece in channel {
                if case .chunk(let chunk) = piece { received.value.withLock { $0 += Int64(chunk.readableBytes) } }
                try receive(piece)
            }
        }
    }
}

/// Bytes received so far, read by the watchdog while the download adds to it.
private final class ByteCount: Sendable {
    let value = Mutex<Int64>(0)
}

extension APIClient {
    /// Downloads through this client whose body is used as it arrives.
    public var download: APIDownload { APIDownload(client: self) }
}
