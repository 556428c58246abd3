import Synchronization
import ToolboxKit

/// What `prefetch` prints, a post at a time as each result comes (a feed's entries are never
/// held, nor their results): piped, a TSV line or a JSON object per post (the array byte for
/// byte as the encoder writes it whole); on a terminal, one summary line at the end. It keeps
/// only the counts, the first failure and the first few posts skipped, for the summary and the
/// exit status.
public final class PrefetchReport: Sendable {
    let mode: OutputMode
    let maxSize: Int
    private let state = Mutex(Tally())

    struct Tally {
        var counts: [Prefetcher.Outcome: Int] = [:]
        var total = 0
        var firstFailure: String?
        var skipped: [String] = []
    }

    public init(mode: OutputMode, maxSize: Int) {
        self.mode = mode
        self.maxSize = maxSize
    }

    /// Counts `result` and, piped, writes it.
    public func add(_ result: Prefetcher.Result) {
        let first = state.withLock { tally in
            tally.total += 1
            tally.counts[result.outcome, default: 0] += 1
            if result.outcome == .failed, tally.firstFailure == nil { tally.firstFailure = result.detail }
            if result.outcome == .skipped, tally.skipped.count < 6 { tally.skipped.append(result.id) }
            return tally.total == 1
        }
        switch mode {
        case .tsv:
            var line = ""
            Table.appendTSV((result.feed.map { [$0] } ?? []) + [result.id, result.outcome.rawValue, String(result.bytes)], to: &line)
            StandardOutput.print(line)
        case .json:
            StandardOutput.print((first ? "[\n" : ",\n") + Self.element(result))
        case .table:
            break
        }
    }

    /// A result as an element of the pretty-printed array: its own encoding, indented.
    static func element(_ result: Prefetcher.Result) -> String {
        let text = String(decoding: JSONCoding.encode(result, pretty: true), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    /// Ends the output: the JSON array's close, or the summary line (unless `quiet`).
    public func finish(quiet: Bool) {
        let tally = state.withLock { $0 }
        switch mode {
        case .json:
            StandardOutput.print(tally.total == 0 ? "[\n\n]\n" : "\n]\n")
        case .tsv:
            break
        case .table:
            guard !quiet else { return }
            var counts: [String] = []
            for outcome in Prefetcher.Outcome.allCases {
                if let count = tally.counts[outcome], count > 0 { counts.append("\(count) \(outcome.rawValue)") }
            }
            var line = counts.isEmpty ? "no posts to prefetch" : counts.joined(separator: ", ")
            if !tally.skipped.isEmpty {
                line += " (larger than \(maxSize): \(tally.skipped.prefix(5).joined(separator: ", "))\(tally.skipped.count > 5 ? ", …" : ""))"
            }
            Tool.blogctl.say(Terminal.sanitizeField(line))
        }
    }

    /// Why the run fails (exit 75): a post that could not be fetched, or a feed not listed.
    public func failure(failedFeeds: Int, of feeds: Int) -> ToolError? {
        let tally = state.withLock { $0 }
        if let detail = tally.firstFailure {
            return .tryLater("\(tally.counts[.failed] ?? 0) of \(tally.total) posts could not be fetched: \(detail)")
        }
        return failedFeeds > 0 ? .tryLater("\(failedFeeds) of \(feeds) feeds could not be listed") : nil
    }
}
