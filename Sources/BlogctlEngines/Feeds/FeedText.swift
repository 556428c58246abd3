import CoreKit

/// The text constructs of feeds made plain: a title or summary that is HTML (RSS's description,
/// Atom's `type="html"` and `"xhtml"`) read by the same libxml2 HTML parser as bodies, its
/// text kept and its whitespace collapsed; and plain text made HTML for a body.
package enum FeedText {
    /// The text of an HTML fragment, on one line.
    static func plain(fromHTML html: String) throws(ToolError) -> String {
        // Without markup or a reference it is its own text: no parser needed (most summaries).
        if !html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) { return collapsed(html) }
        var text: [UInt8] = []
        // What is dropped from a page (a script, a style) is no text; blocks, cells and line
        // breaks part words (`<p>one</p><p>two</p>` is "one two", not "onetwo").
        var dropped = 0
        let stream = try HTMLStream { event in
            switch event {
            case .text(let bytes): if dropped == 0 { text.append(contentsOf: bytes) }
            case .enter(let tag, _):
                if dropped > 0 || tag == .dropped { dropped += 1 }
                else if Self.partsWords(tag) { text.append(0x20) }
            case .exit(let tag):
                if dropped > 0 { dropped -= 1 }
                else if Self.partsWords(tag) { text.append(0x20) }
            }
        }
        var html = html
        html.withUTF8 { stream.feed($0) }
        stream.finish()
        return collapsed(String(decoding: text, as: UTF8.self))
    }

    /// Whether a plain-text construct of an RSS feed (a title) is HTML after all, as
    /// feedparser guesses it (RSS never says): it holds an end tag or a character reference,
    /// and every tag in it is an HTML element. `Second &amp;amp; escaped` is then the title
    /// `Second & escaped`, and `a <b>bold</b> title` is `a bold title`; `Tom & Jerry <3` stays.
    static func looksLikeHTML(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isWord(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
        }
        var hasEndTag = false, hasReference = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "<"):
                var start = index + 1
                let closing = start < bytes.count && bytes[start] == UInt8(ascii: "/")
                if closing { start += 1 }
                var end = start
                while end < bytes.count, isWord(bytes[end]) { end += 1 }
                if end > start {
                    let name = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
                    guard HTMLTag.byName[name] != nil || Self.otherElements.contains(name) else { return false }
                    if closing, end < bytes.count, bytes[end] == UInt8(ascii: ">") { hasEndTag = true }
                }
                index = max(end, index + 1)
            case UInt8(ascii: "&"):
                var end = index + 1
                if end < bytes.count, bytes[end] == UInt8(ascii: "#") { end += 1 }
                let start = end
                while end < bytes.count, isWord(bytes[end]) { end += 1 }
                if end > start, end < bytes.count, bytes[end] == UInt8(ascii: ";") { hasReference = true }
                index = max(end, index + 1)
            default: index += 1
            }
        }
        return hasEndTag || hasReference
    }

    /// HTML elements the renderer has no case for, which a title may still hold.
    static let otherElements: Set<String> = ["span", "abbr", "acronym", "small", "big", "sub", "sup", "s", "strike", "del", "ins",
                                            "mark", "font", "time", "wbr", "dfn", "bdi", "bdo", "label", "nobr", "ruby", "rt", "rp"]

    static func partsWords(_ tag: HTMLTag) -> Bool {
        if tag.isBlock || tag == .lineBreak || tag == .tableRow { return true }
        if case .tableCell = tag { return true }
        return false
    }

    /// Runs of whitespace as one space, none at either end.
    static func collapsed(_ text: String) -> String {
        if isCollapsed(text) { return text }
        var out: [UInt8] = []
        var space = false
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                space = !out.isEmpty
            } else {
                if space { out.append(0x20) }
                space = false
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `text` has no run of whitespace, no tab or line break, nothing at either end:
    /// most titles, ids and links, returned as they are without a copy.
    static func isCollapsed(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last else { return true }
            guard first != 0x20, last != 0x20 else { return false }
            var previous: UInt8 = 0
            for byte in bytes {
                if byte == 0x09 || byte == 0x0A || byte == 0x0D || (byte == 0x20 && previous == 0x20) { return false }
                previous = byte
            }
            return true
        }
    }

    /// Plain text as HTML: escaped, each paragraph (lines up to a blank one) a `<p>`, each line
    /// end within one a `<br>`.
    static func html(fromPlain text: String) -> String {
        var out: [UInt8] = Array("<p>".utf8)
        var newlines = 0
        for byte in text.utf8 {
            if byte == 0x0A { newlines += 1; continue }
            if byte == 0x0D { continue }
            // A blank line parts paragraphs; a line end is kept as one (a poem, an address).
            if newlines >= 2 { out += Array("</p><p>".utf8) } else if newlines == 1 { out += Array("<br>".utf8) }
            newlines = 0
            switch byte {
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out + Array("</p>".utf8), as: UTF8.self)
    }

    /// An attribute's value or a text, escaped for HTML (serialising Atom's `type="xhtml"`).
    static func escaped(_ value: String) -> String {
        value.escapingScalars(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"])
    }

    /// `value` as an XML 1.0 attribute or text: escaped, tabs and line ends as references (an
    /// attribute keeps them so), and what XML 1.0 §2.2 does not allow as a character (other
    /// C0 controls, ESC and BEL among them, U+FFFE, U+FFFF) and C1 controls left out.
    static func xmlEscaped(_ value: String) -> String {
        let allowed = value.unicodeScalars.allSatisfy { scalar in
            let code = scalar.value
            return (code >= 0x20 && code < 0x7F) || (code >= 0xA0 && code != 0xFFFE && code != 0xFFFF)
        }
        var kept = value
        if !allowed {
            var scalars = String.UnicodeScalarView()
            for scalar in value.unicodeScalars {
                let code = scalar.value
                if code == 0x09 || code == 0x0A || code == 0x0D || (code >= 0x20 && code < 0x7F)
                    || (code >= 0xA0 && code != 0xFFFE && code != 0xFFFF) { scalars.append(scalar) }
            }
            kept = String(scalars)
        }
        return kept.escapingScalars(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"])
    }
}
