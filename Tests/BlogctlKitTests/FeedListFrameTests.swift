import ScreenDriver
import ScreenKit
import Testing
import ToolboxKit
@testable import BlogctlKit

/// Issue 63: the `ui` feed list as whole frames at 60×16, 80×24 and 120×40, with a failing
/// feed, a gone one, CJK and combining titles, and the help over it.
@Suite struct FeedListFrameTests {
    static let rows = [
        FeedRow(name: "Blog Nerd Ranch", url: "http://127.0.0.1:1/feed.atom", entries: 7, unread: 6),
        FeedRow(name: "東京の技術ブログ・週刊まとめ", url: "http://127.0.0.1:1/tokyo.xml", entries: 20, unread: 20),
        FeedRow(name: "Cafe\u{301} Notes", url: "http://127.0.0.1:1/cafe.xml", entries: 3, unread: 0),
        FeedRow(name: "Dead", url: "http://127.0.0.1:2/dead.xml", entries: 0, unread: 0,
                      error: "cannot reach http://127.0.0.1:2/dead.xml (connection refused)"),
        FeedRow(name: "Gone", url: "http://127.0.0.1:3/gone.xml", entries: 12, unread: 2,
                      error: "gone (410), no longer asked; blogctl feeds remove removes it"),
    ]

    @Test func theFeedListAtEverySize() {
        for (rows, columns) in [(16, 60), (24, 80), (40, 120)] {
            var driver = ScreenDriver(FeedList(arrangement: Arrangement()), rows: rows, columns: columns)
            #expect(driver.commands == [.refreshFeeds])
            driver.receive(.feeds(Self.rows, refreshing: false, failed: 1))
            #expect(GoldenFrame.matches(driver.frame, named: "feeds-\(columns)x\(rows)"))
            driver.press(.down, .down)
            #expect(GoldenFrame.matches(driver.frame, named: "feeds-moved-\(columns)x\(rows)"))
            driver.press(.character("?"))
            #expect(GoldenFrame.matches(driver.frame, named: "feeds-help-\(columns)x\(rows)"))
        }
    }
}
