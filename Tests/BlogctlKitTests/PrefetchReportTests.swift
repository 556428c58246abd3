import FoundationEssentials
import Testing
@testable import BlogctlKit
import CoreKit

/// Issue 63: `prefetch` writes each result as it comes; its JSON is the array the encoder
/// writes whole, byte for byte.
@Suite struct PrefetchReportTests {
    @Test func theStreamedArrayIsTheEncodersArray() {
        let results = [Prefetcher.Result(id: "a\"1", outcome: .fetched, bytes: 12, detail: ""),
                       Prefetcher.Result(id: "東京", outcome: .skipped, bytes: 3_000_000, detail: "larger than 1000000 bytes", feed: "F\n"),
                       Prefetcher.Result(id: "x", outcome: .failed, bytes: 0, detail: "HTTP 500")]
        for count in 0...results.count {
            let chosen = Array(results.prefix(count))
            let whole = String(decoding: JSONCoding.encode(chosen, pretty: true), as: UTF8.self) + "\n"
            let streamed = chosen.isEmpty ? "[\n\n]\n"
                : "[\n" + chosen.map(PrefetchReport.element).joined(separator: ",\n") + "\n]\n"
            #expect(streamed == whole, "\(count): \(streamed.debugDescription) \(whole.debugDescription)")
        }
    }

    @Test func theFailureSaysTheFirstPostAndTheCount() {
        let report = PrefetchReport(mode: .table, maxSize: 10)
        report.add(Prefetcher.Result(id: "a", outcome: .fetched, bytes: 1, detail: ""))
        #expect(report.failure(failedFeeds: 0, of: 1) == nil)
        #expect(report.failure(failedFeeds: 2, of: 5)?.message == "2 of 5 feeds could not be listed")
        report.add(Prefetcher.Result(id: "b", outcome: .failed, bytes: 0, detail: "HTTP 500"))
        report.add(Prefetcher.Result(id: "c", outcome: .failed, bytes: 0, detail: "HTTP 502"))
        #expect(report.failure(failedFeeds: 0, of: 1)?.message == "2 of 3 posts could not be fetched: HTTP 500")
    }
}
