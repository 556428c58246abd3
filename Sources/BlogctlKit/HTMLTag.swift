/// The elements the renderer treats specially; everything else is an inline container.
enum HTMLTag: Equatable {
    case paragraph, division, heading(Int), unorderedList, orderedList, listItem, blockquote, preformatted
    case table, tableRow, tableCell(header: Bool), tableHead
    case bold, underline, code, link, image, lineBreak, rule, quotation
    case definitionTerm, definitionDescription
    /// script, style, head and the like: dropped with their content.
    case dropped
    case inline

    static let byName: [String: HTMLTag] = {
        var names: [String: HTMLTag] = [
            "p": .paragraph, "ul": .unorderedList, "ol": .orderedList, "menu": .unorderedList, "li": .listItem,
            "blockquote": .blockquote, "pre": .preformatted, "listing": .preformatted, "xmp": .preformatted,
            "table": .table, "tr": .tableRow, "td": .tableCell(header: false), "th": .tableCell(header: true),
            "thead": .tableHead,
            "b": .bold, "strong": .bold, "i": .underline, "em": .underline, "u": .underline, "cite": .underline,
            "code": .code, "kbd": .code, "samp": .code, "tt": .code, "var": .underline,
            "a": .link, "q": .quotation, "img": .image, "br": .lineBreak, "hr": .rule, "dt": .definitionTerm, "dd": .definitionDescription,
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

    /// Names of up to 8 bytes packed into an integer, sorted, beside their tags: a lookup by
    /// binary search, without making a String or hashing, for the millions of elements of a
    /// large page (a dictionary's hashing was a twentieth of rendering a page of `<br>`).
    static let packedNames: (keys: [UInt64], tags: [HTMLTag]) = {
        let pairs = byName.compactMap { name, tag in name.utf8.count <= 8 ? (packed(Array(name.utf8)[...]), tag) : nil }
            .sorted { $0.0 < $1.0 }
        return (pairs.map(\.0), pairs.map(\.1))
    }()

    /// Up to 8 bytes, the first in the lowest byte.
    static func packed(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var key: UInt64 = 0
        for (index, byte) in bytes.enumerated() { key |= UInt64(byte) << (8 * UInt64(index)) }
        return key
    }

    static func named(_ name: UnsafePointer<UInt8>?) -> HTMLTag {
        guard let name else { return .inline }
        var key: UInt64 = 0
        for index in 0..<9 {
            let byte = name[index]
            if byte == 0 { return tag(packed: key) }
            if index == 8 { break }
            key |= UInt64(byte) << (8 * UInt64(index))
        }
        return byName[String(cString: name)] ?? .inline
    }

    static func tag(packed key: UInt64) -> HTMLTag {
        let names = packedNames
        var low = 0
        var high = names.keys.count
        while low < high {
            let middle = (low + high) / 2
            if names.keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < names.keys.count && names.keys[low] == key ? names.tags[low] : .inline
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
