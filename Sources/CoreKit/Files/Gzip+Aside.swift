import Dispatch

extension Gzip {
    /// `decompress(_:limit:consume:)` with the inflating on a thread of its own while `consume`
    /// runs on the caller's, one piece behind: a big compressed document is read on two cores. Each piece is copied
    /// into a buffer of its own and at most `ahead` wait, so memory stays bounded whatever the
    /// size. Returns once all is inflated and consumed; on a failure, throws it after every
    /// piece before it has been consumed, as `decompress` does.
    @discardableResult
    public static func decompressAside(_ input: UnsafeRawBufferPointer, limit: Int, ahead: Int = 4,
                                       consume: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) -> Int {
        let handOff = HandOff(ahead: ahead)
        // The input outlives the inflating thread: this function returns only after the end
        // it hands over, which is its last touch of the input.
        nonisolated(unsafe) let input = input
        DispatchQueue.global().async {
            handOff.finish(Result { () throws(Failure) -> Int in
                try decompress(input, limit: limit) { handOff.put(Array($0)) }
            })
        }
        while true {
            switch handOff.take() {
            case .piece(let piece): piece.withUnsafeBufferPointer(consume)
            case .end(let result): return try result.get()
            }
        }
    }

    /// Pieces from the inflating thread to the caller's, in order, at most `ahead` waiting.
    /// `waiting` is touched only inside `lock.sync`: a serial queue, which ThreadSanitizer
    /// understands (it did not see the Synchronization module's Mutex order the two threads).
    private final class HandOff: @unchecked Sendable {
        enum Item {
            case piece([UInt8])
            case end(Result<Int, Failure>)
        }

        private let room: DispatchSemaphore
        private let ready = DispatchSemaphore(value: 0)
        private let lock = DispatchQueue(label: "toolbox.gzip-aside")
        private var waiting: [Item] = []

        init(ahead: Int) { room = DispatchSemaphore(value: max(ahead, 1)) }

        func put(_ piece: [UInt8]) {
            room.wait()
            lock.sync { waiting.append(.piece(piece)) }
            ready.signal()
        }

        func finish(_ result: Result<Int, Failure>) {
            lock.sync { waiting.append(.end(result)) }
            ready.signal()
        }

        func take() -> Item {
            ready.wait()
            let item = lock.sync { waiting.removeFirst() }
            if case .piece = item { room.signal() }
            return item
        }
    }
}
