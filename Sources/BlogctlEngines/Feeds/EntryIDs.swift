import CoreKit

/// The ids of a feed's entries so far, to leave out a repeated one: each id's FNV-1a hash and
/// its entry's place, in an open-addressed table; a hash seen before is confirmed on the id
/// itself. A `Set<String>` hashed each id with SipHash and again at every doubling, a
/// twentieth of a 100,000-entry feed's parse; this table grows by moving numbers.
package struct EntryIDs {
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
/// order, or each handed to a sink. An entry whose id came before is kept too (planets,
/// re-posts and broken generators repeat ids), under an id of its own: the id, `~`, and the
/// first number from 2 that no entry before it has (`e7~2`, `e7~3`), so that the same
/// document gives the same ids run after run.
package struct EntryCollector {
    let sink: FeedEntrySink?
    private(set) var entries: [FeedEntry] = []
    /// How many entries were kept under an id of their own.
    private(set) var renamed = 0
    private var seen = EntryIDs()
    /// For each id that came again, the next number to try: a feed that repeats one id
    /// thousands of times is not tried from 2 each time.
    private var nextNumber: [String: Int] = [:]

    init(sink: FeedEntrySink?) { self.sink = sink }

    mutating func add(_ entry: FeedEntry) throws(ToolError) {
        var entry = entry
        let id = entry.id
        while try !keeps(entry) {
            let number = nextNumber[id, default: 2]
            nextNumber[id] = number + 1
            entry.id = FeedEntry.acceptedID(id + "~\(number)")
        }
        if entry.id != id { renamed += 1 }
    }

    /// Keeps `entry` unless an entry before it has its id (the sink decides, when there is one).
    private mutating func keeps(_ entry: FeedEntry) throws(ToolError) -> Bool {
        if let sink { return try sink.take(entry) }
        guard seen.insert(entry.id, among: entries) else { return false }
        entries.append(entry)
        return true
    }
}
