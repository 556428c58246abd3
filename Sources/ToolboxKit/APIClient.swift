import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// The one HTTP client of the toolbox, over AsyncHTTPClient: JSON requests, bodies with a
/// progress callback, connect and total timeouts, retries with backoff for idempotent
/// requests, and every failure turned into a `ToolError`.
public final class APIClient: Sendable {
    public let server: ServerURL
    public let timeout: Double
    public let retryPolicy: RetryPolicy
    private let http: HTTPClient
    private let log: @Sendable (String) -> Void

    /// A response whose body has been read whole.
    public struct Response: Sendable {
        public let status: Int
        public let headers: HTTPHeaders
        public let body: ByteBuffer

        public var bytes: [UInt8] { Array(body.readableBytesView) }
        public var data: Data { Data(body.readableBytesView) }
        public var text: String { String(decoding: body.readableBytesView, as: UTF8.self) }
        public func header(_ name: String) -> String? { headers.first(name: name) }
        /// The first line of the body, cleaned and cut, for an error message.
        public var summary: String {
            let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? ""
            let clean = Terminal.sanitizeField(line)
            return clean.count > 200 ? String(clean.prefix(200)) + "…" : clean
        }
    }

    /// A response whose body is still arriving, for server-sent events and large downloads.
    public struct StreamingResponse: Sendable {
        public let status: Int
        public let headers: HTTPHeaders
        public let body: HTTPClientResponse.Body
    }

    /// - Parameters:
    ///   - timeout: seconds for connecting and for the whole of a request (for streaming
    ///     requests, the longest silence between two reads).
    ///   - verbose: a sink for `> METHOD URL` and `< STATUS` lines, or nil.
    public init(server: ServerURL, timeout: Double = 30, retries: Int = 2,
                verbose: (@Sendable (String) -> Void)? = nil) {
        self.server = server
        self.timeout = timeout
        self.retryPolicy = RetryPolicy(retries: retries)
        self.log = verbose ?? { _ in }
        let amount = TimeAmount.milliseconds(Int64(max(timeout, 0.001) * 1000))
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 5, allowCycles: false),
            timeout: .init(connect: amount, read: amount))
        configuration.decompression = .disabled
        // Our RetryPolicy retries with backoff and counts against --retries; AsyncHTTPClient's
        // own retrying of failed connects would hold a refused connection until the timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        self.http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Runs `body` with a client and always shuts the client down afterwards.
    public static func using<T>(server: ServerURL, timeout: Double = 30, retries: Int = 2,
                                verbose: (@Sendable (String) -> Void)? = nil,
                                _ body: (APIClient) async throws -> T) async throws -> T {
        let client = APIClient(server: server, timeout: timeout, retries: retries, verbose: verbose)
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    public func shutdown() async {
        try? await http.shutdown()
    }

    // MARK: - Requests

    /// Sends a request and reads the whole body. Returns every status below 500; a 5xx, a
    /// connection error or a timeout is retried when the request is idempotent, then thrown.
    public func send(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [],
                     body: [UInt8]? = nil, idempotent: Bool? = nil, maxBytes: Int = APIClient.maximumResponse(),
                     progress: (@Sendable (Int64, Int64?) -> Void)? = nil) async throws(ToolError) -> Response {
        let url = server.url(path)
        let retryable = idempotent ?? [.GET, .HEAD, .PUT, .DELETE, .OPTIONS].contains(method)
        let policy = retryable ? retryPolicy : RetryPolicy(retries: 0)
        do {
            return try await policy.run(
                isRetryable: { [timeout] in Self.isTransient(Self.describe($0, url: url, timeout: timeout)) },
                onRetry: { [log] attempt, error, wait in
                    log("* retry \(attempt) of \(policy.retries) in \(Int(wait * 1000)) ms after: \(Self.describe(error, url: url, timeout: self.timeout).message)")
                },
                operation: { _ in
                    let response = try await self.perform(method, url, headers: headers, body: body,
                                                          maxBytes: maxBytes, progress: progress)
                    if response.status >= 500 {
                        throw ToolError.httpStatus(url: url, status: response.status, message: response.summary)
                    }
                    return response
                })
        } catch {
            throw Self.describe(error, url: url, timeout: timeout)
        }
    }

    /// GET a JSON document and decode it. 404 → `notFound(what)`; 401/403 → credentials
    /// refused; another non-2xx → `httpStatus`; undecodable → `protocolViolation` naming the JSON path.
    public func getJSON<T: Decodable>(_ path: String, as type: T.Type, notFound what: String? = nil) async throws(ToolError) -> T {
        let response = try await send(.GET, path, headers: [("Accept", "application/json")])
        try check(response, path: path, notFound: what)
        return try decode(type, from: response, path: path)
    }

    /// Throws the matching `ToolError` unless the status is 2xx.
    public func check(_ response: Response, path: String, notFound what: String? = nil) throws(ToolError) {
        let url = server.url(path)
        switch response.status {
        case 200..<300: return
        case 404: throw what.map { ToolError.notFound(what: $0) } ?? .httpStatus(url: url, status: 404, message: response.summary)
        case 401, 403: throw .credentialsRefused(url: url)
        default: throw .httpStatus(url: url, status: response.status, message: response.summary)
        }
    }

    /// Decodes the body where it lies: the decoder reads the response's own buffer through a
    /// `Data` that does not copy it (it does not outlive this call), so a large answer is not
    /// held twice while it is decoded.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response, path: String) throws(ToolError) -> T {
        let result = response.body.withUnsafeReadableBytes { raw -> Result<T, JSONDecodeFailure> in
            let data = raw.baseAddress.map { Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: raw.count, deallocator: .none) } ?? Data()
            return Result { () throws(JSONDecodeFailure) in try JSONCoding.decode(type, from: data) }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .protocolViolation(url: server.url(path), detail: error.description)
        }
    }

    /// Opens a request whose body the caller reads as it arrives. Not retried: the caller
    /// decides what a broken stream means.
    public func open(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [],
                     body: [UInt8]? = nil) async throws(ToolError) -> StreamingResponse {
        let url = server.url(path)
        do {
            let request = makeRequest(method, url, headers: headers, body: body)
            let start = ContinuousClock.now
            log("> \(method.rawValue) \(url)")
            // No total deadline: a stream may legitimately last long; the read timeout bounds silence.
            let response = try await http.execute(request, deadline: .distantFuture)
            log("< \(response.status.code) \(response.status.reasonPhrase) (\(Self.milliseconds(since: start)) ms)")
            return StreamingResponse(status: Int(response.status.code), headers: response.headers, body: response.body)
        } catch {
            throw Self.describe(error, url: url, timeout: timeout)
        }
    }

    /// The most a response body may hold unless the caller says otherwise: 64 MiB, or
    /// `TOOLBOX_MAX_RESPONSE` (bytes, or with K, M, G, KiB, MiB, GiB). A list larger than
    /// that is refused; reading stops at the limit, so refusing costs no more than it.
    public static func maximumResponse(environment: [String: String] = Environment.current) -> Int {
        environment["TOOLBOX_MAX_RESPONSE"].flatMap(ByteSize.parse).map { max($0, 1) } ?? 64 << 20
    }

    private func perform(_ method: HTTPMethod, _ url: String, headers: [(String, String)], body: [UInt8]?,
                         maxBytes: Int, progress: (@Sendable (Int64, Int64?) -> Void)?) async throws -> Response {
        let request = makeRequest(method, url, headers: headers, body: body)
        let start = ContinuousClock.now
        log("> \(method.rawValue) \(url)")
        // A download that reports progress may take longer than the timeout as long as it keeps
        // moving: the read timeout bounds silence. Other requests get a total deadline too.
        let deadline: NIODeadline = progress == nil
            ? .now() + .milliseconds(Int64(timeout * 1000)) : .distantFuture
        let response = try await http.execute(request, deadline: deadline)
        let expected = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
        var buffer = ByteBuffer()
        if let expected, expected > Int64(maxBytes) {
            throw ToolError.protocolViolation(url: url, detail: "a body of \(expected) bytes, over the limit of \(maxBytes) (TOOLBOX_MAX_RESPONSE)")
        }
        if let expected { buffer.reserveCapacity(Int(expected)) }
        progress?(0, expected)
        for try await chunk in response.body {
            guard buffer.readableBytes + chunk.readableBytes <= maxBytes else {
                throw ToolError.protocolViolation(url: url, detail: "a body larger than the limit of \(maxBytes) bytes (TOOLBOX_MAX_RESPONSE)")
            }
            var chunk = chunk
            buffer.writeBuffer(&chunk)
            progress?(Int64(buffer.readableBytes), expected)
        }
        log("< \(response.status.code) \(response.status.reasonPhrase) (\(Self.milliseconds(since: start)) ms, \(buffer.readableBytes) bytes)")
        return Response(status: Int(response.status.code), headers: response.headers, body: buffer)
    }

    private func makeRequest(_ method: HTTPMethod, _ url: String, headers: [(String, String)], body: [UInt8]?) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "User-Agent", value: "toolbox/\(ToolboxVersion.current)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }

    // MARK: - Errors

    /// Connection errors, timeouts and 5xx are worth another try; 4xx, bad data, usage
    /// errors and Ctrl-C are not.
    public static func isTransient(_ error: ToolError) -> Bool {
        switch error {
        case .unreachable, .timedOut: return true
        case .httpStatus(_, let status, _): return status >= 500
        default: return false
        }
    }

    /// Maps whatever AsyncHTTPClient or NIO threw to a `ToolError` naming the URL.
    public static func describe(_ error: any Error, url: String, timeout: Double) -> ToolError {
        if let error = error as? ToolError { return error }
        if error is CancellationError { return .interrupted }
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout, .readTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout, .writeTimeout:
                return .timedOut(url: url, seconds: timeout)
            case .remoteConnectionClosed:
                return .unreachable(url: url, reason: "connection closed by the server")
            case .invalidURL, .emptyHost, .emptyScheme:
                return .usage("invalid URL \(url)")
            case .cancelled:
                return .interrupted
            default:
                break
            }
        }
        let text = String(describing: error)
        let lower = text.lowercased()
        if lower.contains("refused") { return .unreachable(url: url, reason: "connection refused") }
        if lower.contains("reset") { return .unreachable(url: url, reason: "connection reset") }
        if lower.contains("unreachable") { return .unreachable(url: url, reason: "network unreachable") }
        if lower.contains("dns") || lower.contains("resolve") || lower.contains("nodename") {
            return .unreachable(url: url, reason: "host not found")
        }
        if lower.contains("timeout") || lower.contains("timed out") { return .timedOut(url: url, seconds: timeout) }
        let reason = Terminal.sanitizeField(text)
        return .unreachable(url: url, reason: reason.count > 120 ? String(reason.prefix(120)) + "…" : reason)
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - start
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }
}
