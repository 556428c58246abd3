#if canImport(Glibc)
import Glibc
#endif
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The one HTTP client of the toolbox, over AsyncHTTPClient: JSON requests, bodies with a
/// progress callback, connect and total timeouts, retries with backoff for idempotent
/// requests, and every failure turned into a `ToolError`.
public final class APIClient: Sendable {
    public let server: ServerURL
    /// The one credential this client may send, with the scope it may go to: the server
    /// URL's own unless the caller gives one (passcode's).
    public let credential: Credential?
    public let timeout: Double
    public let retryPolicy: RetryPolicy
    let http: HTTPClient
    /// Whether `http` is this client's own (shut down with it), not one of `HTTPClients`.
    private let ownsHTTP: Bool
    /// Plain http:// requests through an HTTP proxy, in absolute form (nil: AsyncHTTPClient,
    /// directly or through CONNECT).
    let absoluteFormProxy: AbsoluteFormProxy?
    /// The proxy requests go through (a certificate diagnosis connects only without one).
    public let proxy: ProxyChoice?
    let log: @Sendable (String) -> Void

    /// A response whose body has been read whole (`APIResponse`).
    public typealias Response = APIResponse
    /// A response whose body is still arriving (`APIStreamingResponse`).
    public typealias StreamingResponse = APIStreamingResponse
    /// How the client reaches the server (`NetworkSettings`).
    public typealias Network = NetworkSettings

    /// - Parameters:
    ///   - verbose: a sink for `> METHOD URL` and `< STATUS` lines, or nil.
    ///   - shared: the run's HTTP clients, one per network setup, whose connections this
    ///     client shares with the others of the run (nil: a client of its own).
    public init(server: ServerURL, network: Network, credential: Credential? = nil,
                verbose: (@Sendable (String) -> Void)? = nil, shared: HTTPClients? = nil) throws(ToolError) {
        self.server = server
        self.credential = credential ?? Credential(server: server)
        self.timeout = network.timeout
        self.retryPolicy = RetryPolicy(retries: network.retries)
        self.log = verbose ?? { _ in }
        self.proxy = network.proxy
        if let shared {
            self.http = try shared.client(network.sharingKey(for: server)) { () throws(ToolError) in try network.makeHTTPClient(for: server) }
            ownsHTTP = false
        } else {
            self.http = try network.makeHTTPClient(for: server)
            ownsHTTP = true
        }
        if let proxy = network.proxy, proxy.kind == .http, !network.proxyTunnel, !server.isHTTPS {
            absoluteFormProxy = AbsoluteFormProxy(proxy: proxy, connectTimeout: network.connectAmount, readTimeout: network.totalAmount)
        } else {
            absoluteFormProxy = nil
        }
    }

    public convenience init(server: ServerURL, timeout: Double = 30, retries: Int = 2,
                            verbose: (@Sendable (String) -> Void)? = nil) {
        // Plain settings never fail: no CA file to read.
        try! self.init(server: server, network: Network(timeout: timeout, retries: retries, trust: .system(nil)), verbose: verbose)
    }

    /// Runs `body` with a client and always shuts the client down afterwards.
    public static func using<T>(server: ServerURL, timeout: Double = 30, retries: Int = 2,
                                verbose: (@Sendable (String) -> Void)? = nil,
                                _ body: (APIClient) async throws -> T) async throws -> T {
        try await using(APIClient(server: server, timeout: timeout, retries: retries, verbose: verbose), body)
    }

    /// Runs `body` with `client` and always shuts it down afterwards.
    public static func using<T>(_ client: APIClient, _ body: (APIClient) async throws -> T) async throws -> T {
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
        if ownsHTTP { try? await http.shutdown() }
    }

    // MARK: - Requests

    /// Sends a request and reads the whole body. Returns every status below 500; a 5xx, a
    /// connection error or a timeout is retried when the request is idempotent, then thrown.
    /// Without `progress`, the whole of it, retries and body included, ends within `timeout`.
    public func send(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [],
                     body: [UInt8]? = nil, idempotent: Bool? = nil, retrying scope: NetworkFailure.RetryScope = .transient,
                     maxBytes: Int = APIClient.maximumResponse(), spillFrom: Int? = nil,
                     progress: (@Sendable (Int64, Int64?) -> Void)? = nil) async throws(ToolError) -> Response {
        let url = server.url(path)
        let retryable = idempotent ?? [.GET, .HEAD, .PUT, .DELETE, .OPTIONS].contains(method)
        let policy = retryable ? retryPolicy : RetryPolicy(retries: 0)
        let deadline: ContinuousClock.Instant? = progress == nil ? .now + .milliseconds(Int64(timeout * 1000)) : nil
        do {
            return try await policy.run(
                isRetryable: { error in
                    // A retry that could not finish before the deadline is not worth starting.
                    if let deadline, deadline - .now < .milliseconds(100) { return false }
                    return NetworkFailure.isRetryable(self.describe(error, url: url), scope: scope)
                },
                onRetry: { [log] attempt, error, wait in
                    log("* retry \(attempt) of \(policy.retries) in \(Int(wait * 1000)) ms after: \(self.describe(error, url: url).message)")
                },
                operation: { _ in
                    let response = try await self.withDeadline(deadline, url: url) {
                        try await self.perform(method, path, headers: headers, body: body, maxBytes: maxBytes, spillFrom: spillFrom,
                                               progress: progress)
                    }
                    if response.status >= 500 {
                        throw ToolError.httpStatus(url: url, status: response.status, message: response.summary)
                    }
                    return response
                })
        } catch {
            throw await explained(self.describe(error, url: url))
        }
    }

    /// A certificate failure with the reason found out, when BoringSSL gave none.
    func explained(_ error: ToolError) async -> ToolError {
        guard case .certificate(let url, let reason) = error, reason == CertificateDiagnosis.unknown, proxy == nil else { return error }
        return .certificate(url: url, reason: await CertificateDiagnosis.reason(host: server.host, port: server.port))
    }

    /// Runs `operation`, ending it with `timedOut` at `deadline` (nil: no deadline), whatever
    /// it is waiting for: a connection, a header, or a body sent one byte at a time.
    private func withDeadline<T: Sendable>(_ deadline: ContinuousClock.Instant?, url: String,
                                           _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let deadline else { return try await operation() }
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask { [timeout] in
                try await Task.sleep(until: deadline, clock: .continuous)
                throw ToolError.timedOut(url: url, seconds: timeout)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw ToolError.timedOut(url: url, seconds: timeout) }
            return first
        }
    }

    /// GET a JSON document and decode it. 404 → `notFound(what)`; 401/403 → credentials
    /// refused; another non-2xx → `httpStatus`; undecodable → `protocolViolation` naming the JSON path.
    public func getJSON<T: Decodable>(_ path: String, as type: T.Type, notFound what: String? = nil) async throws(ToolError) -> T {
        let response = try await send(.GET, path, headers: [("Accept", "application/json")])
        try check(response, path: path, notFound: what)
        return try decode(type, from: response, path: path)
    }

    /// GET a collection (`/conditions`, `/devices`): a JSON array whose good records are kept
    /// and whose broken ones come back in `skipped`. A 404 here means the server URL is not the
    /// API's base, not that something is missing.
    /// `fast`: reads the body in place when it can (nil: it could not, and the decoder does).
    public func getList<T: Decodable>(_ path: String, as type: T.Type,
                                      fast: ((UnsafeRawBufferPointer) -> LenientList<T>?)? = nil) async throws(ToolError) -> LenientList<T> {
        let response = try await send(.GET, path, headers: [("Accept", "application/json")])
        if response.status == 404 { throw .notTheAPI(url: server.url(path), base: server.description) }
        try check(response, path: path)
        if let fast, let list = response.body.withUnsafeReadableBytes(fast) { return list }
        return try decode(LenientList<T>.self, from: response, path: path)
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
            let start = ContinuousClock.now
            log("> \(method.rawValue) \(url)")
            // No total deadline: a stream may legitimately last long; the read timeout bounds silence.
            let response = try await execute(method, path, headers: headers, body: body)
            log("< \(response.status.code) \(response.status.reasonPhrase) (\(Elapsed.milliseconds(since: start)) ms)")
            return StreamingResponse(status: Int(response.status.code), headers: response.headers, body: response.body)
        } catch {
            throw await explained(self.describe(error, url: url))
        }
    }

    /// The most a response body may hold unless the caller says otherwise: 64 MiB, or
    /// `TOOLBOX_MAX_RESPONSE` (bytes, or with K, M, G, KiB, MiB, GiB). A list larger than
    /// that is refused; reading stops at the limit, so refusing costs no more than it.
    public static func maximumResponse(environment: [String: String] = Environment.current) -> Int {
        environment["TOOLBOX_MAX_RESPONSE"].flatMap(ByteSize.parse).map { max($0, 1) } ?? 64 << 20
    }

    /// `spillFrom`: a body that grows past this many bytes goes on to a temporary file
    /// (`Response.spilled`), so that callers that may hold several big bodies at once hold none.
    private func perform(_ method: HTTPMethod, _ path: String, headers: [(String, String)], body: [UInt8]?,
                         maxBytes: Int, spillFrom: Int? = nil, progress: (@Sendable (Int64, Int64?) -> Void)?) async throws -> Response {
        let url = server.url(path)
        let start = ContinuousClock.now
        log("> \(method.rawValue) \(url)")
        // A download that reports progress may take longer than the timeout as long as it keeps
        // moving: the read timeout bounds silence. Other requests are bounded by `send`.
        var final: (url: String, permanently: Bool)?
        let response = try await execute(method, path, headers: headers, body: body, arrived: { final = ($0, $1) })
        let expected = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
        var buffer = ByteBuffer()
        if let expected, expected > Int64(maxBytes) {
            throw ToolError.protocolViolation(url: url, detail: "a body of \(expected) bytes, over the limit of \(maxBytes) (TOOLBOX_MAX_RESPONSE)")
        }
        // Room made once for a body that will be held, not for one that will go to a file.
        if let expected, expected <= Int64(spillFrom ?? maxBytes) { buffer.reserveCapacity(Int(expected)) }
        var spill: Int32?
        var spilledCount = 0
        // A spill file is closed on every way out until its SpilledBody owns it.
        var owned = false
        defer { if let spill, !owned { Glibc.close(spill) } }
        progress?(0, expected)
        for try await chunk in response.body {
            let received: Int = spilledCount + buffer.readableBytes
            let arriving: Int = chunk.readableBytes
            guard received + arriving <= maxBytes else {
                throw ToolError.protocolViolation(url: url, detail: "a body larger than the limit of \(maxBytes) bytes (TOOLBOX_MAX_RESPONSE)")
            }
            if spill == nil, let spillFrom, received + arriving > spillFrom {
                let fd = try SpilledBody.create()
                spill = fd
                try SpilledBody.append(buffer, to: fd)
                spilledCount = buffer.readableBytes
                buffer = ByteBuffer()
            }
            if let spill {
                try SpilledBody.append(chunk, to: spill)
                spilledCount += arriving
            } else {
                var chunk = chunk
                buffer.writeBuffer(&chunk)
            }
            let total: Int = spilledCount + buffer.readableBytes
            progress?(Int64(total), expected)
        }
        var spilled: SpilledBody?
        if let spill {
            spilled = SpilledBody(fd: spill, count: spilledCount)
            owned = true
        }
        let size: Int = spilledCount + buffer.readableBytes
        let place = spilled == nil ? "" : ", to a temporary file"
        log("< \(response.status.code) \(response.status.reasonPhrase) (\(Elapsed.milliseconds(since: start)) ms, \(size) bytes\(place))")
        return Response(status: Int(response.status.code), headers: response.headers, body: buffer,
                        movedPermanently: final?.permanently == true ? final?.url : nil, redirectedTo: final?.url, spilled: spilled)
    }
}
