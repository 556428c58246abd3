/// UTF-8 decoding of one scalar at a time, for byte-level text handling.
package enum UTF8Scalar {
    /// The scalar at `index` and its length in bytes; nil (length 1) for an invalid sequence.
    static func decode<C: Collection<UInt8>>(_ bytes: C, at index: Int) -> (Unicode.Scalar?, Int) where C.Index == Int {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0..<0x80: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return (nil, 1)
        }
        guard index + length <= bytes.endIndex else { return (nil, 1) }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value), value >= [0, 0, 0x80, 0x800, 0x10000][length] else { return (nil, 1) }
        return (scalar, length)
    }
}
