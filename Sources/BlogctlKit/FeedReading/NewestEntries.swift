import FoundationEssentials
import BlogctlEngines

/// The newest `capacity` of entries offered one at a time, for their bodies to be cached: the
/// rest are let go as they come, so a feed of a million entries holds a thousand. Newest by
/// date (an entry without one is the oldest); of equal dates, the one earlier in the feed.
struct NewestEntries {
    let capacity: Int
    /// A heap whose top is the least new of those kept: the one a newer entry replaces.
    private var heap: [(entry: FeedEntry, position: Int)] = []

    init(capacity: Int) { self.capacity = capacity }

    /// Whether `a` is newer than `b`, as the cache keeps them.
    private static func newer(_ a: (entry: FeedEntry, position: Int), _ b: (entry: FeedEntry, position: Int)) -> Bool {
        let (left, right) = (a.entry.date ?? .distantPast, b.entry.date ?? .distantPast)
        return left != right ? left > right : a.position < b.position
    }

    mutating func offer(_ entry: FeedEntry, position: Int) {
        guard capacity > 0 else { return }
        let offered = (entry: entry, position: position)
        if heap.count < capacity {
            heap.append(offered)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.newer(heap[parent], heap[child]) else { break }
                heap.swapAt(parent, child)
                child = parent
            }
            return
        }
        guard Self.newer(offered, heap[0]) else { return }
        heap[0] = offered
        var parent = 0
        while true {
            let (left, right) = (2 * parent + 1, 2 * parent + 2)
            var least = parent
            if left < heap.count, Self.newer(heap[least], heap[left]) { least = left }
            if right < heap.count, Self.newer(heap[least], heap[right]) { least = right }
            guard least != parent else { return }
            heap.swapAt(parent, least)
            parent = least
        }
    }

    /// Those kept, newest first.
    func sorted() -> [FeedEntry] {
        heap.sorted(by: Self.newer).map(\.entry)
    }
}
