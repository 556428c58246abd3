import Hummingbird
import NIOCore
import ToolboxKit

extension Response {
    /// A plain-text response, as the original servers answered errors.
    static func text(_ text: String, status: HTTPResponse.Status, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: contentType],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A JSON response from bytes already encoded.
    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, contentType: String = "application/json") -> Response {
        Response(status: status, headers: [.contentType: contentType],
                 body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `{"error": {"message": "..."}}`, Hummingbird's own error shape.
    static func jsonError(_ message: String, status: HTTPResponse.Status) -> Response {
        json(Array(JSONCoding.encode(["error": ["message": message]])), status: status)
    }
}
