#if canImport(Glibc)
import Glibc
#endif

/// Byte comparisons behind the string operators, on memcmp and memchr (glibc's memmem is a
/// GNU extension that Swift's Glibc module does not export).
enum ByteSearch {
    @inline(__always)
    static func equal(_ left: Text, _ right: Text) -> Bool {
        guard left.count == right.count else { return false }
        guard let a = left.baseAddress, let b = right.baseAddress, left.count > 0 else { return true }
        return memcmp(a, b, left.count) == 0
    }

    @inline(__always)
    static func contains(_ haystack: Text, _ needle: Text) -> Bool {
        if needle.isEmpty { return true }
        guard needle.count <= haystack.count, let h = haystack.baseAddress, let n = needle.baseAddress else { return false }
        let first = Int32(n[0])
        let rest = needle.count - 1
        var offset = 0
        let lastStart = haystack.count - needle.count
        // Find each occurrence of the needle's first byte, then compare the remainder.
        while offset <= lastStart {
            guard let hit = memchr(h + offset, first, lastStart - offset + 1) else { return false }
            let position = h.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if rest == 0 || memcmp(h + position + 1, n + 1, rest) == 0 { return true }
            offset = position + 1
        }
        return false
    }
}
