/// Where a stream of UTF-8 may be cut into pieces that each decode on their own: a piece must
/// not end inside a sequence (its last bytes would become U+FFFD, and so would the first of the
/// next piece).
public enum UTF8Cut {
    /// How many leading bytes of `bytes` end on a sequence boundary: all but an incomplete
    /// sequence at the very end.
    public static func completePrefix(_ bytes: [UInt8]) -> Int {
        var index = bytes.count
        var back = 0
        while index > 0 && back < 4 {
            index -= 1
            back += 1
            let byte = bytes[index]
            if byte & 0xC0 == 0x80 { continue }  // a continuation byte: look further back
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? index : bytes.count
        }
        return bytes.count
    }
}
