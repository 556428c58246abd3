import FoundationEssentials
import ScreenKit
import ToolboxKit

/// The sync screen's rows: every change still to reach the server, with its state as the
/// store has it, and, while a sync runs, as it happens (sending, retry N in X s, synced,
/// rejected, kept). After a sync the changes it got through stay listed as synced until the
/// next one. Events update their row in place, so a sync of 10,000 changes stays cheap.
public struct SyncBoard: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Waiting for a sync; the last transient error, if any.
        case pending(lastError: String?)
        /// Left alone by the screen's sync until resolved: the server's value now.
        case conflict(server: Date?)
        case rejected(String)
        /// Taken by this sync, not started yet.
        case queued
        case sending(attempt: Int)
        /// `seconds` left before retry `retry`; counts down with the screen's ticks.
        case retrying(retry: Int, seconds: Double, error: String)
        case synced
        /// Still pending after this sync: retries spent, or stopped.
        case kept(String)
    }

    public struct Row: Sendable, Equatable {
        public let id: String
        public let date: Date?
        public var state: State
    }

    public private(set) var rows: [Row] = []
    /// Row index by id (its bytes: ids equal as Swift strings may be two devices), for events.
    private var index: [[UInt8]: Int] = [:]
    /// The changes the running (or last) sync took, in its order: while it runs, the first
    /// `takenCount` rows; afterwards, as it left them.
    private var taken: [Row] = []
    private var takenCount = 0
    public private(set) var running = false
    public private(set) var stopping = false
    /// What the last sync did, one line.
    public var summary: String?

    public init() {}

    /// The store's pending changes (in the order sync sends them). While a sync runs, the
    /// rows it took keep their live state; afterwards the store is the truth, and what the
    /// last sync got through is shown after the rest.
    public mutating func load(pending devices: [Device]) {
        let stored = devices.compactMap { device in device.change.map { Row(id: device.id, date: $0.installationDate, state: Self.state(of: $0)) } }
        if running {
            let live = Array(rows.prefix(takenCount))
            let takenIDs = Set(live.map { Array($0.id.utf8) })
            rows = live + stored.filter { !takenIDs.contains(Array($0.id.utf8)) }
        } else {
            let storedIDs = Set(stored.map { Array($0.id.utf8) })
            rows = stored + taken.filter { $0.state == .synced && !storedIDs.contains(Array($0.id.utf8)) }
        }
        reindex()
    }

    static func state(of change: PendingChange) -> State {
        if let server = change.serverChange { return .conflict(server: server.installationDate) }
        if change.state == .rejected { return .rejected(change.lastError ?? "rejected") }
        return .pending(lastError: change.lastError)
    }

    /// Changes a sync would send now (conflicts wait for the installer).
    public var sendable: Int { rows.count { if case .pending = $0.state { true } else { false } } }

    /// The running sync's changes, and how many of them are settled (synced, rejected, kept).
    public var progress: (done: Int, total: Int) {
        let done = rows.prefix(takenCount).count { row in
            switch row.state {
            case .synced, .rejected, .kept: true
            default: false
            }
        }
        return (done, takenCount)
    }

    public mutating func started() {
        running = true
        stopping = false
        taken = []
        takenCount = 0
        summary = nil
    }

    public mutating func stop() { if running { stopping = true } }

    /// Applies one event of the running sync; true when it settled a change for good (the
    /// server took it), which the store then no longer holds as pending.
    @discardableResult
    public mutating func apply(_ event: SyncEvent) -> Bool {
        if case .synced(let id) = event, let row = index[Array(id.utf8)], rows[row].state != .synced {
            rows[row].state = .synced
            return true
        }
        switch event {
        case .claimed(let ids, _):
            let dates = Dictionary(rows.map { (Array($0.id.utf8), $0.date) }, uniquingKeysWith: { first, _ in first })
            let takenIDs = Set(ids.map { Array($0.utf8) })
            rows = ids.map { Row(id: $0, date: dates[Array($0.utf8)] ?? nil, state: .queued) }
                + rows.filter { !takenIDs.contains(Array($0.id.utf8)) }
            takenCount = ids.count
            reindex()
        case .sending(let id, let attempt): set(id, .sending(attempt: attempt))
        case .waiting(let id, let retry, let seconds, let error): set(id, .retrying(retry: retry, seconds: seconds, error: error))
        case .synced: break
        case .rejected(let id, let message): set(id, .rejected(message))
        case .kept(let id, let message): set(id, .kept(message))
        }
        return false
    }

    private mutating func set(_ id: String, _ state: State) {
        guard let row = index[Array(id.utf8)] else { return }
        rows[row].state = state
    }

    /// The sync ended: `summary` says how.
    public mutating func finished(_ summary: String) {
        if running { taken = Array(rows.prefix(takenCount)) }
        running = false
        stopping = false
        self.summary = summary
    }

    /// A tenth of a second passed: retry countdowns move.
    public mutating func tick() {
        for row in rows.indices {
            if case .retrying(let retry, let seconds, let error) = rows[row].state {
                rows[row].state = .retrying(retry: retry, seconds: max(seconds - 0.1, 0), error: error)
            }
        }
    }

    private mutating func reindex() {
        index = Dictionary(rows.enumerated().map { (Array($1.id.utf8), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A state in words, and how it is drawn.
    static func describe(_ state: State) -> (String, Style) {
        switch state {
        case .pending(let error?): ("pending · last error: " + error, .plain)
        case .pending(nil): ("pending", .plain)
        case .conflict(let server):
            ("conflict: the server has " + DeviceLine.date(server) + " (Enter resolves)", Style(bold: true, color: .yellow))
        case .rejected(let message): ("rejected: " + message, Style(bold: true, color: .red))
        case .queued: ("queued", .dim)
        case .sending(1): ("sending…", .bold)
        case .sending(let attempt): ("sending… (try \(attempt))", .bold)
        case .retrying(let retry, let seconds, let error):
            ("retry \(retry) in " + Self.tenths(seconds) + " s" + (error.isEmpty ? "" : " · " + error), Style(color: .yellow))
        case .synced: ("synced ✓", Style(bold: true, color: .green))
        case .kept(let message): ("kept for later: " + message, Style(color: .yellow))
        }
    }

    /// `1.3`: a countdown to a tenth of a second.
    static func tenths(_ seconds: Double) -> String {
        let tenths = Int((max(seconds, 0) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
