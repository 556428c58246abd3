import CoreKit

/// The ids of a feed's entries so far, to leave out a repeated one: each id's FNV-1a hash and
/// its entry's place, in an open-addressed table; a hash seen before is confirmed on the id
/// itself. A `Set<String>` hashed each id with SipHash and again at every doubling, a
/// twentieth of a 100,000-entry feed's parse; this table grows by moving numbers.
struct EntryIDs {
    private var slots: [(hash: UInt64, place: Int)?] = Array(repeating: nil, count: 64)
    private var count = 0

    /// Adds `id`, the id of the entry to be appended to `entries`, unless an entry there has
    /// it already: then false.
    mutating func insert(_ id: String, among entries: [FeedEntry]) -> Bool {
        var hasher = FNV1a()
        hasher.add(id)
        let hash = hasher.value
        var index = slot(of: hash)
        while let slot = slots[index] {
            if slot.hash == hash, entries[slot.place].id.utf8.elementsEqual(id.utf8) { return false }
            index = (index + 1) & (slots.count - 1)
        }
        slots[index] = (hash, entries.count)
        count += 1
        if count * 2 > slots.count { grow() }
        return true
    }

    private func slot(of hash: UInt64) -> Int {
        // FNV-1a's low bits mix poorly for short keys that differ at the end: mixed first.
        let mixed = (hash ^ (hash >> 29)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 32)) & (slots.count - 1)
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        for case let (hash, place)? in old {
            var index = slot(of: hash)
            while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
            slots[index] = (hash, place)
        }
    }
}

/// A parse's entries as they are made, for RSS, Atom and JSON Feed alike: kept in document
/// order, a repeated id left out and counted; or each handed to a sink, which decides.
struct EntryCollector {
    let sink: FeedEntrySink?
    private(set) var entries: [FeedEntry] = []
    private(set) var duplicates = 0
    private var seen = EntryIDs()

    init(sink: FeedEntrySink?) { self.sink = sink }

    mutating func add(_ entry: FeedEntry) throws(ToolError) {
        if let sink {
            if try !sink.take(entry) { duplicates += 1 }
        } else if seen.insert(entry.id, among: entries) {
            entries.append(entry)
        } else {
            duplicates += 1
        }
    }
}
