/// A body's rendered text cut into the search index's chunks: about `size` bytes each, cut
/// after a space or line end so that no word is split (a run of `size` bytes without one is cut
/// at a character boundary). One row per chunk keeps a search's work per post bounded: a snippet
/// reads one chunk, never a whole 100 MB body, and FTS5 flushes its terms chunk by chunk
/// instead of holding a whole post's in memory.
public struct SearchChunker {
    public static let size = 8 * 1024
    private var pending: [UInt8] = []
    private let emit: (String) -> Void
    private let size: Int

    public init(size: Int = Self.size, emit: @escaping (String) -> Void) {
        self.size = size
        self.emit = emit
        pending.reserveCapacity(size * 2)
    }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        pending.append(contentsOf: bytes)
        var start = 0
        // More than `size`: the byte after a chunk is there to say whether a character goes on.
        while pending.count - start > size {
            let end = cut(from: start)
            emit(String(decoding: pending[start..<end], as: UTF8.self))
            start = end
        }
        if start > 0 { pending.removeFirst(start) }
    }

    /// The rest, as the last chunk.
    public mutating func finish() {
        if pending.contains(where: { $0 > 0x20 }) { emit(String(decoding: pending, as: UTF8.self)) }
        pending.removeAll()
    }

    /// Where the chunk starting at `start` ends: after the last space or line end of its
    /// `size` bytes, else before the last character that starts within them.
    private func cut(from start: Int) -> Int {
        let limit = start + size
        var at = limit
        while at > start + size / 2 {
            if pending[at - 1] == 0x20 || pending[at - 1] == 0x0A { return at }
            at -= 1
        }
        at = limit
        // Not inside a character: back to a byte that is not a continuation byte.
        while at > start + 1, pending[at] & 0xC0 == 0x80 { at -= 1 }
        return at
    }

    /// The chunks of a whole text (tests, and bodies given as text).
    public static func chunks(_ text: String, size: Int = Self.size) -> [String] {
        var result: [String] = []
        var chunker = SearchChunker(size: size) { result.append($0) }
        chunker.append(text.utf8)
        chunker.finish()
        return result
    }
}
