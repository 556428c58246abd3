/// The elements the renderer treats specially; everything else is an inline container.
package enum HTMLTag: Equatable {
    case paragraph, division, heading(Int), unorderedList, orderedList, listItem, blockquote, preformatted
    case table, tableRow, tableCell(header: Bool), tableHead
    case bold, underline, code, link, image, lineBreak, rule, quotation
    case definitionTerm, definitionDescription
    /// script, style, head and the like: dropped with their content.
    case dropped
    case inline
    /// `<base href>`: the base of a page's relative URLs (feed discovery); nothing to show.
    case documentBase

    static let byName: [String: HTMLTag] = {
        var names: [String: HTMLTag] = [
            "p": .paragraph, "ul": .unorderedList, "ol": .orderedList, "menu": .unorderedList, "li": .listItem,
            "blockquote": .blockquote, "pre": .preformatted, "listing": .preformatted, "xmp": .preformatted,
            "table": .table, "tr": .tableRow, "td": .tableCell(header: false), "th": .tableCell(header: true),
            "thead": .tableHead,
            "b": .bold, "strong": .bold, "i": .underline, "em": .underline, "u": .underline, "cite": .underline,
            "code": .code, "kbd": .code, "samp": .code, "tt": .code, "var": .underline,
            "a": .link, "base": .documentBase, "q": .quotation, "img": .image, "br": .lineBreak, "hr": .rule, "dt": .definitionTerm, "dd": .definitionDescription,
        ]
        for name in ["div", "section", "article", "header", "footer", "main", "nav", "aside", "figure",
                     "figcaption", "address", "center", "form", "fieldset", "details", "summary", "dl",
                     "body", "html", "caption", "tbody", "tfoot", "hgroup", "legend"] {
            names[name] = .division
        }
        for level in 1...6 { names["h\(level)"] = .heading(level) }
        for name in ["script", "style", "head", "title", "noscript", "template", "iframe", "object",
                     "embed", "svg", "math", "select", "textarea", "button", "input", "audio", "video", "canvas"] {
            names[name] = .dropped
        }
        return names
    }()

    /// Names of up to 8 bytes packed into an integer, in an open-addressed table of 256 slots
    /// made once and never freed: a lookup is a multiply, a shift and a compare or two, with
    /// no String, no hashing and no reference counting, for the millions of elements of a
    /// large page.
    // Written once, when first used (a `static let` is made once, under a lock), read only after.
    typealias Slots = UnsafeMutableBufferPointer<(key: UInt64, tag: HTMLTag)>
    nonisolated(unsafe) static let slots: Slots = {
        let slots = UnsafeMutableBufferPointer<(key: UInt64, tag: HTMLTag)>.allocate(capacity: 256)
        slots.initialize(repeating: (0, .inline))
        for (name, tag) in byName where name.utf8.count <= 8 {
            let key = packed(Array(name.utf8)[...])
            var slot = slotIndex(key)
            while slots[slot].key != 0 { slot = (slot + 1) & 255 }
            slots[slot] = (key, tag)
        }
        return slots
    }()

    static func slotIndex(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 56) }

    /// Up to 8 bytes, the first in the lowest byte.
    static func packed(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var key: UInt64 = 0
        for (index, byte) in bytes.enumerated() { key |= UInt64(byte) << (8 * UInt64(index)) }
        return key
    }

    /// `slots`: `Self.slots`, which a caller naming millions of elements reads once and
    /// passes (each read of a value made at first use checks whether it is made yet).
    static func named(_ name: UnsafePointer<UInt8>?, in slots: Slots = Self.slots) -> HTMLTag {
        guard let name else { return .inline }
        var key: UInt64 = 0
        for index in 0..<9 {
            let byte = name[index]
            if byte == 0 { return tag(packed: key, in: slots) }
            if index == 8 { break }
            key |= UInt64(byte) << (8 * UInt64(index))
        }
        return byName[String(cString: name)] ?? .inline
    }

    static func tag(packed key: UInt64, in slots: Slots) -> HTMLTag {
        var slot = slotIndex(key)
        while true {
            let entry = slots[slot]
            if entry.key == key { return entry.tag }
            if entry.key == 0 { return .inline }
            slot = (slot + 1) & 255
        }
    }

    /// Elements that end the paragraph before them and start a new block.
    var isBlock: Bool {
        switch self {
        case .paragraph, .division, .heading, .unorderedList, .orderedList, .listItem, .blockquote,
             .preformatted, .table, .rule, .definitionTerm, .definitionDescription:
            return true
        default:
            return false
        }
    }
}
