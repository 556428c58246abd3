#if canImport(Glibc)
import Glibc
#endif

/// A hash table from byte strings to objects, looked up with borrowed bytes: no String and
/// no allocation per lookup, and a hash that reads three 8-byte samples rather than every
/// byte (keys that share a hash are told apart by comparing them). `condtest test` finds a
/// TSV line's condition this way, a million times a second.
struct ByteKeyTable<Value: AnyObject> {
    private struct Slot {
        let key: [UInt8]
        let hash: Int
        let value: Value
    }

    private var slots: [Slot?] = Array(repeating: nil, count: 16)
    private(set) var count = 0

    /// Length and three samples (start, middle, end), mixed: constant time whatever the length.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var mixed = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
        if bytes.count >= 8, let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            for offset in [0, (bytes.count - 8) / 2, bytes.count - 8] {
                mixed = (mixed ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                mixed ^= mixed >> 33
            }
        } else {
            for byte in bytes { mixed = (mixed ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }

    @inline(__always)
    func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var index = hash & mask
        while let slot = slots[index] {
            if slot.hash == hash && Self.equal(slot.key, bytes) { return slot.value }
            index = (index + 1) & mask
        }
        return nil
    }

    mutating func insert(_ value: Value, for key: [UInt8]) {
        if (count + 1) * 2 > slots.count { grow() }
        let hash = key.withUnsafeBufferPointer { Self.hash($0) }
        let mask = slots.count - 1
        var index = hash & mask
        while let slot = slots[index] {
            if slot.hash == hash && slot.key == key { slots[index] = Slot(key: key, hash: hash, value: value); return }
            index = (index + 1) & mask
        }
        slots[index] = Slot(key: key, hash: hash, value: value)
        count += 1
    }

    private mutating func grow() {
        let old = slots.compactMap { $0 }
        slots = Array(repeating: nil, count: slots.count * 2)
        count = 0
        for slot in old { insert(slot.value, for: slot.key) }
    }

    @inline(__always)
    static func equal(_ key: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard key.count == bytes.count else { return false }
        guard let other = bytes.baseAddress else { return true }
        return key.withUnsafeBufferPointer { memcmp($0.baseAddress!, other, bytes.count) == 0 }
    }
}
