import CoreKit

/// Lists and blockquotes: the markers and indents that prefix the lines inside them.
extension BodyRenderer {
    func openList(ordered: Bool, start: String?) {
        flushParagraph()
        if lists.itemDepth == 0 { requestBlank() }
        lists.open(ordered: ordered, start: start)
    }

    func closeList() {
        flushParagraph()
        lists.close()
        if lists.itemDepth == 0 { requestBlank() }
    }

    func openListItem() {
        flushParagraph()
        lists.itemDepth += 1
        lines.push(first: lists.nextMarker(markdown: markdown), rest: [], pageWidth: markdown ? nil : options.width)
    }

    func closeListItem() {
        flushParagraph()
        lists.itemDepth -= 1
        lines.pop()
    }

    /// A blockquote's or a definition's indent, on every line inside it.
    func openIndent(_ prefix: String) {
        lines.push(first: Array(prefix.utf8), rest: Array(prefix.utf8), pageWidth: markdown ? nil : options.width)
    }

    func closeIndent() {
        lines.pop()
        requestBlank()
    }
}
