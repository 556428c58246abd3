import Hummingbird
import NIOCore

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
        json(Array(JSONErrorBody.encode(message).utf8), status: status)
    }
}

enum JSONErrorBody {
    static func encode(_ message: String) -> String {
        var escaped = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += String(format4: scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "{\"error\":{\"message\":\"\(escaped)\"}}"
    }
}

extension String {
    init(format4 value: UInt32) {
        let hex = String(value, radix: 16)
        self = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
