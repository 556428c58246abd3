#if canImport(Glibc)
import Glibc
#endif

/// Start tags as `HTMLStream` reads them ahead of libxml2, to keep its element stack bounded.
extension HTMLStream {
    /// What a start tag does to libxml2's stack: a void element never opens; a block one left
    /// out becomes a line break; anything else opens, and left out becomes a space.
    package enum NameKind { case void, block, other }

    /// A tag name of up to 12 bytes, letters lowercased, in two words.
    package struct NameKey: Equatable {
        var head: UInt64 = 0
        var tail: UInt32 = 0
    }

    /// The name starting at `start` read as libxml2 2.9 reads it (`htmlParseHTMLName`: letters,
    /// digits, `:`, `-`, `_` and `.`), not only its letters: `<br-x>` and `<br0>` open elements
    /// of their own, and taken for `<br>` they went past the depth limit uncounted. Nil for a
    /// name longer than any known one.
    static func nameKey(_ bytes: ArraySlice<UInt8>, at start: Int) -> NameKey? {
        var key = NameKey()
        var end = start
        while end < bytes.endIndex, MarkupScanner.isNameByte(bytes[end]) {
            guard end - start < 12 else { return nil }
            let byte = MarkupScanner.isLetter(bytes[end]) ? bytes[end] | 0x20 : bytes[end]
            let at = end - start
            if at < 8 { key.head |= UInt64(byte) << (8 * UInt64(at)) } else { key.tail |= UInt32(byte) << (8 * UInt32(at - 8)) }
            end += 1
        }
        return key
    }

    static func nameKind(_ bytes: ArraySlice<UInt8>, at start: Int) -> NameKind {
        guard let key = nameKey(bytes, at: start) else { return .other }
        let slots = nameSlots
        var slot = slotIndex(key)
        while true {
            let entry = slots[slot]
            if entry.key == key { return entry.kind }
            if entry.key == NameKey() { return .other }
            slot = (slot + 1) & 127
        }
    }

    /// The void and block names in an open-addressed table of 128 slots made once and never
    /// freed, as `HTMLTag.slots`: one lookup per start tag near the limit, no allocation.
    // Written once, when first used (a `static let` is made once, under a lock), read only after.
    nonisolated(unsafe) static let nameSlots: UnsafeMutableBufferPointer<(key: NameKey, kind: NameKind)> = {
        let voids = ["area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source",
                     "track", "wbr"]
        let blocks = ["address", "article", "aside", "blockquote", "dd", "details", "div", "dl", "dt", "fieldset", "figcaption",
                      "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "li", "main", "nav", "ol", "p",
                      "pre", "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"]
        let slots = UnsafeMutableBufferPointer<(key: NameKey, kind: NameKind)>.allocate(capacity: 128)
        slots.initialize(repeating: (NameKey(), .other))
        for (names, kind) in [(voids, NameKind.void), (blocks, .block)] {
            for name in names {
                let key = nameKey(Array(name.utf8)[...], at: 0)!
                var slot = slotIndex(key)
                while slots[slot].key != NameKey() { slot = (slot + 1) & 127 }
                slots[slot] = (key, kind)
            }
        }
        return slots
    }()

    static func slotIndex(_ key: NameKey) -> Int {
        Int(truncatingIfNeeded: ((key.head ^ UInt64(key.tail) << 21) &* 0x9E37_79B9_7F4A_7C15) >> 57)
    }

    /// The index of the first `<` in `bytes` at or after `start`, or the end index.
    static func firstOpen(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        first(UInt8(ascii: "<"), in: bytes, from: start)
    }

    /// The index of the first `byte` in `bytes` at or after `start`, or the end index.
    static func first(_ byte: UInt8, in bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        // Next to it already (a tag after a tag): no call made.
        if start < bytes.endIndex && bytes[start] == byte { return start }
        return bytes.withUnsafeBufferPointer { buffer in
            let offset = start - bytes.startIndex
            guard let found = memchr(buffer.baseAddress! + offset, Int32(byte), buffer.count - offset) else {
                return bytes.endIndex
            }
            return start + (UnsafeRawPointer(found) - UnsafeRawPointer(buffer.baseAddress! + offset))
        }
    }

    /// The index of the byte that ends the start tag at `start` as libxml2 reads it (its `>`,
    /// past quoted values); nil when it does not end in `bytes`.
    static func tagEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        // Most tags hold no quote and no NUL: they end at the first `>`.
        let close = first(UInt8(ascii: ">"), in: bytes, from: start)
        guard close < bytes.endIndex else { return nil }
        if !bytes[start..<close].contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == 0 }) {
            return close
        }
        var scanner = MarkupScanner()
        var index = start
        while index < bytes.endIndex {
            scanner.step(bytes[index])
            if index > start && (scanner.inText || scanner.state == .rawText) { return index }
            index += 1
        }
        return nil
    }
}
