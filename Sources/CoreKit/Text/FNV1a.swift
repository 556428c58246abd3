/// FNV-1a, 64 bits: a fast, stable hash of bytes for what is named or compared by content
/// (cache folders, long ids, ETags, fingerprints). Stable across runs and machines, as what it
/// names is kept on disk; never for security. Inlinable: whole feeds are hashed a byte at a
/// time, and a call across the module for each byte would be most of that work.
@frozen public struct FNV1a: Sendable {
    public var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inlinable public init() {}

    @inlinable public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    @inlinable public mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { add(byte) }
    }

    /// A string's UTF-8, read in place rather than through its view's iterator.
    @inlinable public mutating func add(_ string: String) {
        var string = string
        string.withUTF8 { for byte in $0 { add(byte) } }
    }

    @inlinable public static func hash(_ bytes: some Sequence<UInt8>) -> FNV1a {
        var hasher = FNV1a()
        hasher.add(bytes)
        return hasher
    }

    /// The value as 16 hexadecimal digits, zeros first.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
