/// Markup as `HTMLStream` hands it to libxml2: every tag, comment, declaration and run of
/// script or style bounded, and no quote that libxml2 would read two ways.
extension HTMLStream {
    /// The most of one tag, comment, declaration or script that libxml2 gets: past it, the
    /// rest is left out up to the construct's end, which libxml2 gets as a closing of its own
    /// (blogctl(1), read). libxml2 2.9 holds a construct whole until its end arrives (50 MB
    /// of one attribute value took 560 MB, of one script 90 MB).
    static let markupLimit = 1 << 20

    /// A construct past `markupLimit`, left out to its end.
    package struct Dropping {
        /// Raw text (a script's, a style's): it ends where its end tag starts.
        var raw: Bool
        /// What ends the part libxml2 has, in its eyes (a value's quote, `-->`, `>`).
        var closer: [UInt8]
        var isStartTag: Bool
        /// Where the left-out bytes start, in the piece being pushed; nil in a later piece.
        var start: Int?
    }

    /// What ends the construct `scanner` is in for libxml2, with the bytes it has so far.
    static func closer(of scanner: MarkupScanner) -> [UInt8] {
        switch scanner.state {
        case .comment: return Array("-->".utf8)
        case .startTag: return scanner.valueQuote.map { [$0] } ?? []
        case .doctype: return (scanner.doctypeQuote.map { [$0] } ?? []) + [UInt8(ascii: ">")]
        default: return [UInt8(ascii: ">")]
        }
    }

    /// A quote libxml2's lookup for a tag's end would take for a value's (`<b a">`): it then
    /// waits for its match and holds the rest of the page, while its parser reads the tag as
    /// ending at the first `>`. As a character reference, both read it alike.
    static func reference(for quote: UInt8) -> [UInt8] {
        Array((quote == UInt8(ascii: "\"") ? "&quot;" : "&#39;").utf8)
    }

    /// One byte inside markup (the scanner has read it): counted against `markupLimit`, left
    /// out while a construct past it is, rewritten when a stray quote. Moves `from` past what
    /// `flattened` now holds in its place, or past what is left out.
    /// `start`: where the construct began (bytes before this piece's start count too).
    func markupByte(at index: Int, in bytes: ArraySlice<UInt8>, stray: Bool, scanner: MarkupScanner, from: inout Int,
                    start: inout Int) {
        if var dropping {
            let ended = dropping.raw ? scanner.state == .endTag : scanner.inText || scanner.state == .rawText
            from = index + 1
            guard ended else { return }
            if dropping.raw {
                // The end tag's `</name` goes to libxml2 whole (it lies in this piece: pieces
                // are cut before a `<`), but no byte it already has.
                let endTagStart = index - (scanner.rawEndCount - 1)
                from = max(endTagStart, dropping.start ?? bytes.startIndex)
            } else {
                if dropping.isStartTag { dropping.closer += Array((scanner.closedItself ? "/>" : ">").utf8) }
                flattened.append(contentsOf: dropping.closer)
                from = index + 1
            }
            self.dropping = nil
            start = index + 1
            return
        }
        if stray {
            flattened.append(contentsOf: bytes[from..<index])
            flattened.append(contentsOf: Self.reference(for: bytes[index]))
            from = index + 1
        }
        if !scanner.inText && index - start >= Self.markupLimit {
            flattened.append(contentsOf: bytes[from..<index + 1])
            from = index + 1
            dropping = Dropping(raw: scanner.state == .rawText, closer: Self.closer(of: scanner),
                                isStartTag: scanner.isInStartTag, start: index + 1)
        }
    }
}

extension HTMLStream {
    /// Parses what `flattened` holds and then `tail`, in one call when `flattened` holds
    /// anything: what it holds may end inside a tag (a rewritten quote), and libxml2 2.9
    /// resumed inside a tag can hold the rest of the page.
    func parse(flattenedThen tail: ArraySlice<UInt8>) {
        if flattened.isEmpty { return parse(tail) }
        flattened.append(contentsOf: tail)
        parseFlattened()
    }
}
