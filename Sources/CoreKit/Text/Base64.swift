/// RFC 4648 base64, for HTTP Basic credentials.
public enum Base64 {
    /// The value of an `Authorization` (or `Proxy-Authorization`) header for HTTP Basic.
    public static func basicAuthorization(user: String, password: String) -> String {
        "Basic " + encode(Array((user + ":" + password).utf8))
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index]
            let b1 = index + 1 < bytes.count ? bytes[index + 1] : 0
            let b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            output.append(index + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            output.append(index + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base64 `text` (RFC 4648; white space between, as in a feed's element, is
    /// skipped; padding optional); nil when it holds anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count / 4 * 3)
        var buffer: UInt32 = 0
        var bits = 0
        var ended = false
        for byte in text.utf8 {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="):
                ended = true
                continue
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return nil
            }
            if ended { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return bits >= 6 ? nil : output
    }
}
