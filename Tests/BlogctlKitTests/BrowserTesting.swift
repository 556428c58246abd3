import ScreenDriver
import ScreenKit
import TestSupport
import Testing
import ToolboxKit
@testable import BlogctlKit

/// What the browser's tests share: a browser with the fixture posts listed, and its screen.
protocol BrowserTesting {}

extension BrowserTesting {
    func loaded(_ arrangement: Arrangement = Arrangement(), read: ReadMarks.IDs = ["a2"]) -> PostBrowser {
        var browser = PostBrowser(server: "http://127.0.0.1:8106", arrangement: arrangement)
        do { let value = browser.start(); #expect(value == [.loadList]) }
        #expect(browser.isBusy)
        _ = browser.receive(.listing(Fixtures.posts, read: read, fromServer: true))
        return browser
    }



    func text(_ id: String, lines: [String], links: [String] = []) -> PostText {
        try! PostText(metadata: Fixtures.posts.first { $0.id == id }!, lines: lines, links: links)
    }
}
