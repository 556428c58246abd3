import CoreKit

/// An image as a word of the text: `[image]` or `[image: ALT]` on a terminal, `![ALT](URL)`
/// in Markdown. Printable ASCII alt text, the common case, is put together from libxml2's
/// bytes in a buffer kept from one image to the next, with no String made.
struct ImageWord {
    private var buffer: [UInt8] = []

    mutating func add(_ attributes: HTMLAttributes, options: RenderOptions, to inline: inout InlineText) {
        let markdown = options.format == .markdown
        if !markdown, addPrintable(attributes, to: &inline) { return }
        let alt = attributes.value("alt")?.trimmingSpaces() ?? ""
        if markdown {
            let source = attributes.value("src").map { Terminal.sanitizeField(options.links.resolve($0)) } ?? ""
            let label = String(alt.unicodeScalars.filter { $0 != "[" && $0 != "]" }.map(Character.init))
            inline.appendWord("![\(label)](\(LinkNumbers.markdownTarget(source)))")
        } else {
            inline.appendWord(alt.isEmpty ? "[image]" : "[image: \(alt)]")
        }
    }

    /// The word from libxml2's bytes when the alt text is printable ASCII once its blanks are
    /// trimmed (what `sanitizeField` and `trimmingSpaces` leave as it is); false for any
    /// other, which takes the String path.
    private mutating func addPrintable(_ attributes: HTMLAttributes, to inline: inout InlineText) -> Bool {
        var alt = attributes.bytes("alt") ?? UnsafeBufferPointer(start: nil, count: 0)
        // Only what `sanitizeField` leaves blank (a space) or makes one (a tab, a line feed):
        // it shows other controls, which `trimmingSpaces` then keeps.
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A }
        while let first = alt.first, isBlank(first) { alt = UnsafeBufferPointer(rebasing: alt.dropFirst()) }
        while let last = alt.last, isBlank(last) { alt = UnsafeBufferPointer(rebasing: alt.dropLast()) }
        guard alt.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
        if alt.isEmpty {
            let word: StaticString = "[image]"
            inline.appendWord(printable: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
            return true
        }
        let before: StaticString = "[image: "
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: UnsafeBufferPointer(start: before.utf8Start, count: before.utf8CodeUnitCount))
        buffer.append(contentsOf: alt)
        buffer.append(UInt8(ascii: "]"))
        buffer.withUnsafeBufferPointer { inline.appendWord(printable: $0) }
        return true
    }
}
