import Synchronization
import ToolboxKit

/// The feeds a refresh is asking right now, by source key (`ServerURL.folderName`), so that a
/// screen opening one of them waits for that answer instead of asking the feed a second time:
/// `ui`'s feed list refreshes every feed at start, and a feed opened meanwhile joins it.
final class RefreshesInFlight: Sendable {
    static let shared = RefreshesInFlight()

    init() {}

    /// What a screen that opened a feed learns from `join`.
    enum Joined: Sendable {
        /// No refresh was asking the feed: the caller asks it.
        case notAsked
        /// The refresh it joined wrote the feed's answer into the library.
        case listed
        /// The refresh it joined failed, as this says.
        case failed(ToolError)
    }

    private let asking = Mutex<[String: [CheckedContinuation<Joined, Never>]]>([:])

    /// `key` is being asked from now until `end`.
    func begin(_ key: String) {
        asking.withLock { if $0[key] == nil { $0[key] = [] } }
    }

    /// `key`'s answer is in (or `error` said why not): those who joined go on.
    func end(_ key: String, error: ToolError?) {
        let waiting = asking.withLock { $0.removeValue(forKey: key) } ?? []
        for waiter in waiting { waiter.resume(returning: error.map(Joined.failed) ?? .listed) }
    }

    /// How many wait for `key`'s answer.
    func waiting(_ key: String) -> Int { asking.withLock { $0[key]?.count ?? 0 } }

    /// Waits for the refresh asking `key`, if one is; `.notAsked` at once otherwise.
    func join(_ key: String) async -> Joined {
        await withCheckedContinuation { continuation in
            let joined = asking.withLock { asking in
                guard asking[key] != nil else { return false }
                asking[key]!.append(continuation)
                return true
            }
            if !joined { continuation.resume(returning: .notAsked) }
        }
    }
}
