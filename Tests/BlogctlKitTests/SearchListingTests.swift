@testable import BlogctlKit
import Testing
import ToolboxKit

/// `search` over every feed shows ids as `list` does (issue 65): on a terminal each id's start
/// that tells it apart, so long guid ids leave the title its room; piped and JSON output keep
/// the whole id, which scripts pass on.
@Suite struct SearchListingTests {
    static func hits() -> [SearchIndex.Hit] {
        ["https://blog.example/2024/05/a-first-post/", "https://blog.example/2024/05/another-post/"].map { id in
            var hit = SearchIndex.Hit(id: id, title: "Title of " + id.suffix(12), author: "A", snippet: "a snippet", cached: true)
            hit.feed = "Blog"
            return hit
        }
    }

    @Test func theTableShowsTheStartThatTellsIdsApart() {
        let length = IDPrefix.length(Self.hits().map(\.id))
        let table = SearchListing.render(Self.hits(), mode: .table, bold: false, idLength: length)
        #expect(table.contains("https://blog.example/2024/05/a- ") && table.contains("https://blog.example/2024/05/an "), "\(table)")
        #expect(!table.contains("a-first-post/"), "\(table)")
        // Without a length (one server's search), ids are shown whole.
        #expect(SearchListing.render(Self.hits(), mode: .table, bold: false).contains("a-first-post/"))
    }

    @Test func pipedAndJSONOutputKeepWholeIds() {
        for mode in [OutputMode.tsv, .json] {
            let text = SearchListing.render(Self.hits(), mode: mode, bold: false, idLength: 8)
            #expect(text.contains("https://blog.example/2024/05/a-first-post/") && text.contains("another-post/"), "\(mode): \(text)")
        }
    }
}
