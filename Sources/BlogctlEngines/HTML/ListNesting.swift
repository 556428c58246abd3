import CoreKit

/// The lists open, innermost last, and the markers of their items: numbered lists count
/// from their `start`, within 32 bits as browsers keep them; bullets change with the depth.
struct ListNesting {
    private struct List {
        var ordered: Bool
        var next: Int
    }

    private var lists: [List] = []
    /// How many list items are open: a list inside one is not set apart by blank lines.
    var itemDepth = 0

    mutating func open(ordered: Bool, start: String?) {
        let first = start.flatMap { Int($0.trimmingSpaces()) }.map { min(max($0, -2_147_483_648), 2_147_483_647) } ?? 1
        lists.append(List(ordered: ordered, next: first))
    }

    mutating func close() {
        if !lists.isEmpty { lists.removeLast() }
    }

    /// The next item's marker (the parser streams, so a list's length is unknown: each item
    /// aligns its own lines).
    mutating func nextMarker(markdown: Bool) -> [UInt8] {
        guard let index = lists.indices.last else { return Array((markdown ? "- " : "• ").utf8) }
        if lists[index].ordered {
            let number = lists[index].next
            lists[index].next = number < 2_147_483_647 ? number + 1 : number
            return Array("\(number). ".utf8)
        }
        if markdown { return Array("- ".utf8) }
        return Array((["•", "◦", "▪"][index % 3] + " ").utf8)
    }
}
