import ToolboxKit

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
        guard containers.count < Self.deepestIndent else {
            containersBeyondIndent += 1
            return
        }
        let width = TextWidth.of(String(decoding: first, as: UTF8.self))
        let restPrefix = rest.isEmpty ? [UInt8](repeating: 0x20, count: width) : rest
        containers.append(Container(first: first, rest: restPrefix, width: width))
    }

    func popContainer() {
        if containersBeyondIndent > 0 { containersBeyondIndent -= 1 }
        else if !containers.isEmpty { containers.removeLast() }
    }
}
