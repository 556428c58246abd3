import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// A response whose body has been read whole.
public struct APIResponse: Sendable {
    public let status: Int
    public let headers: HTTPHeaders
    public let body: ByteBuffer
    /// Where every redirect followed said, permanently (301, 308), the resource now lives.
    public var movedPermanently: String? = nil
    /// Where the body came from after any redirect (nil: the URL asked for): the base
    /// its relative links resolve against.
    public var redirectedTo: String? = nil
    /// The body, when it went to a temporary file instead of `body` (`send`'s `spillFrom`).
    public var spilled: SpilledBody? = nil

    /// A body that came from no server (a feed command's output), as a 200 with no headers.
    public init(local bytes: [UInt8]) {
        status = 200
        headers = [:]
        body = ByteBuffer(bytes: bytes)
    }

    init(status: Int, headers: HTTPHeaders, body: ByteBuffer, movedPermanently: String? = nil, redirectedTo: String? = nil,
         spilled: SpilledBody? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.movedPermanently = movedPermanently
        self.redirectedTo = redirectedTo
        self.spilled = spilled
    }

    /// How many bytes the body has, held or spilled.
    public var bodyCount: Int { spilled?.count ?? body.readableBytes }

    /// The body's first `count` bytes, held or spilled.
    public func bodyHead(_ count: Int) -> [UInt8] { spilled?.head(count) ?? Array(body.readableBytesView.prefix(count)) }

    public var bytes: [UInt8] { Array(body.readableBytesView) }
    public var data: Data { Data(body.readableBytesView) }
    public var text: String { String(decoding: body.readableBytesView, as: UTF8.self) }
    public func header(_ name: String) -> String? { headers.first(name: name) }
    /// The first line of the body, cleaned and cut, for an error message.
    public var summary: String {
        // By bytes: "\r\n" is one Character, equal to neither "\r" nor "\n".
        let bytes = body.readableBytesView
        let end = bytes.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.endIndex
        let line = String(decoding: bytes[..<end], as: UTF8.self)
        let clean = Terminal.sanitizeField(line)
        return clean.count > 200 ? String(clean.prefix(200)) + "…" : clean
    }
}

/// A response whose body is still arriving, for server-sent events and large downloads.
public struct APIStreamingResponse: Sendable {
    public let status: Int
    public let headers: HTTPHeaders
    public let body: HTTPClientResponse.Body
}
