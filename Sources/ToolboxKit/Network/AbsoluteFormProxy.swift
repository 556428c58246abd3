import AsyncAlgorithms
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix

/// Plain HTTP through an HTTP proxy as curl sends it: one connection to the proxy, and a request
/// line carrying the absolute URL (`GET http://host:port/path HTTP/1.1`). AsyncHTTPClient always
/// tunnels through `CONNECT`, which most proxies (squid's default rules, tinyproxy's
/// `ConnectPort 443`) allow to port 443 only; `--proxytunnel` still asks for that.
/// One request per connection (`Connection: close`); the body arrives as it is read, with
/// backpressure: a chunk is read from the socket once the one before was taken.
struct AbsoluteFormProxy: Sendable {
    let proxy: ProxyChoice
    let connectTimeout: TimeAmount
    /// The longest silence while the answer is awaited or read.
    let readTimeout: TimeAmount

    /// Sends `method` for `url` (absolute, http://) with `headers` and `body` through the proxy.
    func execute(_ method: HTTPMethod, url: String, headers: HTTPHeaders, body: [UInt8]?) async throws -> HTTPClientResponse {
        let target = try Target(url)
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: url, headers: headers)
        head.headers.replaceOrAdd(name: "Host", value: target.hostHeader)
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        if let user = proxy.user {
            head.headers.replaceOrAdd(name: "Proxy-Authorization",
                                      value: Base64.basicAuthorization(user: user, password: proxy.password ?? ""))
        }
        if let body { head.headers.replaceOrAdd(name: "Content-Length", value: String(body.count)) }

        let readTimeout = self.readTimeout
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(connectTimeout)
            .connect(host: proxy.host, port: proxy.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: readTimeout))
                    try channel.pipeline.syncOperations.addHandler(SilenceHandler())
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        let chunks = AsyncThrowingChannel<ByteBuffer, any Error>()
        let headArrived = HeadHandoff()
        // The exchange runs in its own task, which owns the connection and closes it when the
        // body has been read, failed, or was abandoned (`ProxiedBody` cancels the task).
        let exchange = Task {
            do {
                try await channel.executeThenClose { inbound, outbound in
                    try await outbound.write(.head(head))
                    if let body { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
                    try await outbound.write(.end(nil))
                    var sawHead = false
                    for try await part in inbound {
                        switch part {
                        case .head(let response) where response.status == .continue:
                            continue
                        case .head(let response):
                            sawHead = true
                            await headArrived.deliver(.success(response))
                        case .body(let buffer):
                            await chunks.send(buffer)
                            if Task.isCancelled { return }
                        case .end:
                            chunks.finish()
                            return
                        }
                    }
                    if !sawHead { throw HTTPClientError.remoteConnectionClosed }
                    chunks.finish()
                }
            } catch {
                await headArrived.deliver(.failure(error))
                chunks.fail(error)
            }
        }
        let responseHead: HTTPResponseHead
        do {
            responseHead = try await withTaskCancellationHandler {
                try await headArrived.value()
            } onCancel: {
                exchange.cancel()
            }
        } catch {
            exchange.cancel()
            throw error
        }
        let owner = ExchangeOwner(exchange)
        let body = HTTPClientResponse.Body.stream(ProxiedBody(chunks: chunks, owner: owner))
        return HTTPClientResponse(version: responseHead.version, status: responseHead.status,
                                  headers: responseHead.headers, body: body)
    }

    /// The host and port of an http:// URL, for the `Host` header.
    struct Target {
        let hostHeader: String

        init(_ url: String) throws {
            guard url.lowercased().utf8.starts(with: "http://".utf8) else { throw HTTPClientError.invalidURL }
            var authority = url.utf8.dropFirst(7)
            if let slash = authority.firstIndex(of: UInt8(ascii: "/")) { authority = authority[..<slash] }
            guard !authority.isEmpty else { throw HTTPClientError.emptyHost }
            hostHeader = String(decoding: authority, as: UTF8.self)
        }
    }
}

/// The response head, handed from the exchange's task to the caller once.
private actor HeadHandoff {
    private var result: Result<HTTPResponseHead, any Error>?
    private var waiter: CheckedContinuation<HTTPResponseHead, any Error>?

    func deliver(_ value: Result<HTTPResponseHead, any Error>) {
        guard result == nil else { return }
        result = value
        waiter?.resume(with: value)
        waiter = nil
    }

    func value() async throws -> HTTPResponseHead {
        if let result { return try result.get() }
        return try await withCheckedThrowingContinuation { waiter = $0 }
    }
}

/// Ends the exchange when the body is dropped before its end: the connection closes then,
/// not when the process exits.
private final class ExchangeOwner: Sendable {
    let task: Task<Void, Never>
    init(_ task: Task<Void, Never>) { self.task = task }
    deinit { task.cancel() }
}

/// The body's bytes as the exchange reads them.
private struct ProxiedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let chunks: AsyncThrowingChannel<ByteBuffer, any Error>
    let owner: ExchangeOwner

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingChannel<ByteBuffer, any Error>.AsyncIterator
        let owner: ExchangeOwner
        mutating func next() async throws -> ByteBuffer? { try await base.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: chunks.makeAsyncIterator(), owner: owner) }
}

/// Turns the idle handler's "no byte for the read timeout" into the error AsyncHTTPClient gives.
private final class SilenceHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.fireErrorCaught(HTTPClientError.readTimeout)
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
