/// `%XX` escapes in URLs (RFC 3986): decoded, and written (upper-case hex digits).
public enum PercentEncoding {
    /// `text` with every byte that `keeping` refuses written as `%XX`.
    public static func encode(_ text: String, keeping: (UInt8) -> Bool) -> String {
        var result = ""
        for byte in text.utf8 {
            if keeping(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    /// The text the escapes stand for, or nil when an escape is malformed or the bytes are not UTF-8.
    public static func decode<S: StringProtocol>(_ text: S) -> String? {
        guard let bytes = decodedBytes(text, strict: true) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// As a browser reads it: a malformed escape stays as written, bytes that are not UTF-8
    /// become U+FFFD.
    public static func decodeLeniently<S: StringProtocol>(_ text: S) -> String {
        String(decoding: decodedBytes(text, strict: false) ?? Array(text.utf8), as: UTF8.self)
    }

    private static func decodedBytes<S: StringProtocol>(_ text: S, strict: Bool) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                    bytes.append(high << 4 | low)
                    index += 3
                    continue
                }
                if strict { return nil }
            }
            bytes.append(byte)
            index += 1
        }
        return bytes
    }

    /// The value of one hex digit, either case; nil for anything else. The one such reader
    /// (percent-escapes, `$'\xHH'`, `\uXXXX`).
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
