/// The devices a list shows, as positions in the store's list: the type filter picks some
/// without copying them (a copy of 100,000 devices was 18 MB).
public struct ShownDevices: RandomAccessCollection, Sendable, Equatable {
    private var all: [Device] = []
    private var positions: [Int] = []

    public init() {}

    /// The devices of `all` that `include` accepts, in order.
    init(_ all: [Device], where include: (Device) -> Bool) {
        self.all = all
        positions = all.indices.filter { include(all[$0]) }
    }

    /// Where each shown device is in the list it was picked from.
    var picked: [Int] { positions }

    public var startIndex: Int { 0 }
    public var endIndex: Int { positions.count }
    public subscript(index: Int) -> Device { all[positions[index]] }
}
