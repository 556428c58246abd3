/// A Bloom filter of ASCII byte strings: `mayContain` false means the bytes were never
/// inserted; true, perhaps. A lookup is one pass of a cheap hash and two bit tests, with no
/// String and no allocation: the misses of a table keyed by strings (the hrefs of a body's
/// links past the numbered ones, each new) are known for that.
struct ByteStringFilter {
    private var bits: [UInt64]
    private let mask: UInt64

    /// `bitCount`: a power of two, sized for what is inserted (2% false positives at 13 bits
    /// an element).
    init(bitCount: Int) {
        precondition(bitCount >= 64 && bitCount & (bitCount - 1) == 0)
        bits = [UInt64](repeating: 0, count: bitCount / 64)
        mask = UInt64(bitCount - 1)
    }

    /// FNV-1a with a final mix, or nil for bytes that are not all ASCII (whose String may be
    /// another's: invalid UTF-8 decodes to U+FFFD).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var high: UInt8 = 0
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
            high |= byte
        }
        guard high < 0x80 else { return nil }
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        return hash ^ (hash >> 33)
    }

    private func positions(_ hash: UInt64) -> (Int, Int) {
        (Int(truncatingIfNeeded: hash & mask), Int(truncatingIfNeeded: (hash >> 32) & mask))
    }

    mutating func insert(_ hash: UInt64) {
        let (first, second) = positions(hash)
        bits[first >> 6] |= 1 << UInt64(first & 63)
        bits[second >> 6] |= 1 << UInt64(second & 63)
    }

    func mayContain(_ hash: UInt64) -> Bool {
        let (first, second) = positions(hash)
        return bits[first >> 6] & (1 << UInt64(first & 63)) != 0 && bits[second >> 6] & (1 << UInt64(second & 63)) != 0
    }
}
