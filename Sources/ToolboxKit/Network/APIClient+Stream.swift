import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Downloads whose body is used as it arrives and never held (a post of a gigabyte): retried
/// as `send` retries, from the start, after `restart` has thrown away what the try before
/// had consumed.
extension APIClient {
    /// Sends `method` for `path` and hands a 2xx answer's body to `consume` piece by piece,
    /// `progress` seeing the bytes and the total once known. Silence is bounded by the
    /// timeout, not the whole download. A body past `maxBytes` is a protocol violation. Any
    /// other status comes back with at most 64 KiB of its body, for its message; a 5xx, a
    /// connection error or a timeout is retried (`restart` first) when the method is idempotent.
    public func stream(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], maxBytes: Int,
                       progress: (Int64, Int64?) -> Void = { _, _ in }, restart: () -> Void,
                       consume: (UnsafeRawBufferPointer) throws -> Void) async throws(ToolError) -> Response {
        let url = server.url(path)
        let policy = [.GET, .HEAD].contains(method) ? retryPolicy : RetryPolicy(retries: 0)
        do {
            return try await policy.run(
                isRetryable: { error in Self.isTransient(self.describe(error, url: url)) },
                onRetry: { [log] attempt, error, wait in
                    log("* retry \(attempt) of \(policy.retries) in \(Int(wait * 1000)) ms after: \(self.describe(error, url: url).message)")
                },
                operation: { attempt in
                    if attempt > 0 { restart() }
                    let start = ContinuousClock.now
                    log("> \(method.rawValue) \(url)")
                    let response = try await execute(method, path, headers: headers, body: nil)
                    let status = Int(response.status.code)
                    let expected = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
                    var total: Int64 = 0
                    var kept = ByteBuffer()
                    if (200..<300).contains(status) {
                        if let expected, expected > Int64(maxBytes) {
                            throw ToolError.protocolViolation(url: url, detail: "a body of \(expected) bytes, over the limit of \(maxBytes)")
                        }
                        progress(0, expected)
                        for try await chunk in response.body {
                            total += Int64(chunk.readableBytes)
                            guard total <= Int64(maxBytes) else {
                                throw ToolError.protocolViolation(url: url, detail: "a body larger than the limit of \(maxBytes) bytes")
                            }
                            try chunk.withUnsafeReadableBytes { try consume($0) }
                            progress(total, expected)
                        }
                    } else {
                        for try await var chunk in response.body where kept.readableBytes < 1 << 16 {
                            kept.writeBuffer(&chunk)
                        }
                    }
                    log("< \(status) \(response.status.reasonPhrase) (\(Elapsed.milliseconds(since: start)) ms, \(total) bytes)")
                    if status >= 500 {
                        let answer = Response(status: status, headers: response.headers, body: kept)
                        throw ToolError.httpStatus(url: url, status: status, message: answer.summary)
                    }
                    return Response(status: status, headers: response.headers, body: kept)
                })
        } catch {
            throw await explained(self.describe(error, url: url))
        }
    }
}
