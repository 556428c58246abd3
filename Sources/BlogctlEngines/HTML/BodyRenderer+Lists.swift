import CoreKit

/// Lists and blockquotes: the markers and indents that prefix the lines inside them.
extension BodyRenderer {
    func listMarker() -> [UInt8] {
        guard !lists.isEmpty else { return Array((markdown ? "- " : "• ").utf8) }
        let depth = lists.count - 1
        let index = lists.count - 1
        if lists[index].ordered {
            let number = lists[index].next
            lists[index].next = number < 2_147_483_647 ? number + 1 : number
            // The parser streams, so the list's length is unknown: each item aligns its own lines.
            return Array("\(number). ".utf8)
        }
        if markdown { return Array("- ".utf8) }
        return Array((["•", "◦", "▪"][depth % 3] + " ").utf8)
    }

    func pushContainer(first: [UInt8], rest: [UInt8]) {
        let width = TextWidth.of(String(decoding: first, as: UTF8.self))
        // Past `deepestIndent`, or where the text would have less than `narrowest` columns
        // (long list numbers), a container indents no further, nor any inside it: no line is
        // wider than the page, and the containers kept stay the outermost.
        let indent = containers.reduce(0) { $0 + $1.width }
        guard containersBeyondIndent == 0, containers.count < Self.deepestIndent,
              markdown || indent + width <= options.width - Self.narrowest else {
            containersBeyondIndent += 1
            return
        }
        let restPrefix = rest.isEmpty ? [UInt8](repeating: 0x20, count: width) : rest
        containers.append(Container(first: first, rest: restPrefix, width: width))
    }

    func popContainer() {
        if containersBeyondIndent > 0 { containersBeyondIndent -= 1 }
        else if !containers.isEmpty { containers.removeLast() }
    }

    func openList(ordered: Bool, start: String?) {
        flushParagraph()
        if listItemDepth == 0 { requestBlank() }
        // Browsers keep list numbers within 32 bits; so do we, and a huge `start` cannot overflow.
        let first = start.flatMap { Int($0.trimmingSpaces()) }.map { min(max($0, -2_147_483_648), 2_147_483_647) } ?? 1
        lists.append(ListState(ordered: ordered, next: first))
    }

    func closeList() {
        flushParagraph()
        if !lists.isEmpty { lists.removeLast() }
        if listItemDepth == 0 { requestBlank() }
    }

    func openListItem() {
        flushParagraph()
        listItemDepth += 1
        pushContainer(first: listMarker(), rest: [])
    }

    func closeListItem() {
        flushParagraph()
        listItemDepth -= 1
        popContainer()
    }

    /// A blockquote's or a definition's indent, on every line inside it.
    func openIndent(_ prefix: String) {
        pushContainer(first: Array(prefix.utf8), rest: Array(prefix.utf8))
    }

    func closeIndent() {
        popContainer()
        requestBlank()
    }
}
