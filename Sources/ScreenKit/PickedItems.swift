/// Some items of a list, in an order of their own, as positions in it: what a screen shows
/// after sorting, grouping or filtering, without copying the items (a copy of 100,000 posts
/// or devices was 18 MB, and retaining their strings half of a first frame).
public struct PickedItems<Element>: RandomAccessCollection {
    private var all: [Element]
    /// Where each picked item is in the whole list.
    public private(set) var positions: [Int]

    public init(_ all: [Element] = [], positions: [Int]? = nil) {
        self.all = all
        self.positions = positions ?? Array(all.indices)
    }

    /// The items of `all` that `include` accepts, in their order.
    public init(_ all: [Element], where include: (Element) -> Bool) {
        self.init(all, positions: all.indices.filter { include(all[$0]) })
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { positions.count }
    public subscript(index: Int) -> Element { all[positions[index]] }
}

extension PickedItems: Sendable where Element: Sendable {}
