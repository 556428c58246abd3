import Foundation
import Testing
@testable import BlogctlKit
import ToolboxKit
import TestSupport

/// Issue 15: list filters, read marks and the browser's choice.
@Suite struct ReaderFeatureTests {
    let posts = [
        Fixtures.post("1", "One", "2018-07-31T23:30:00Z", "Ada Lovelace"),
        Fixtures.post("2", "Two", "2018-08-01T00:00:00Z", "Alan Turing"),
        Fixtures.post("3", "Three", "2018-08-15T12:00:00Z", "ada lovelace"),
        Fixtures.post("4", "Four", "2018-08-31T23:59:59Z", "Grace Hopper"),
        Fixtures.post("5", "Five", "2018-09-01T00:00:00Z", "Ada Lovelace"),
    ]
    let utc: @Sendable (Date) -> Int = { _ in 0 }

    func kept(_ filter: PostFilter, read: Set<String> = []) -> [String] {
        posts.filter { filter.keeps($0, isRead: read.contains($0.id)) }.map(\.id)
    }

    @Test func daysAreWholeDaysInTheReadersZoneAndInstantsAreExact() throws {
        let dates = DateInput(utcOffset: utc)
        let since = try dates.value(of: "2018-08-01").start
        let until = try dates.value(of: "2018-08-31").end
        #expect(kept(PostFilter(since: since, until: until)) == ["2", "3", "4"])
        // Two hours east of UTC, 1 August begins at 22:00 UTC on 31 July.
        let twoHoursEast: @Sendable (Date) -> Int = { _ in 7200 }
        let east = try DateInput(utcOffset: twoHoursEast).value(of: "2018-08-01").start
        #expect(kept(PostFilter(since: east)) == ["1", "2", "3", "4", "5"])
        let instant = try dates.value(of: "2018-08-15T12:00:00Z").end
        #expect(kept(PostFilter(until: instant)) == ["1", "2", "3"])
        for bad in ["2018-13-01", "2018-02-30", "2019-02-29", "18-08-01", "", "2018-8-1"] {
            #expect(dates.value(bad) == nil, "\(bad)")
        }
        #expect(dates.value("2020-02-29") != nil)
    }

    @Test func authorIsAnyCasePartOfTheNameAndUnreadUsesTheMarks() {
        #expect(kept(PostFilter(author: "LOVE")) == ["1", "3", "5"])
        #expect(kept(PostFilter(author: "turing")) == ["2"])
        #expect(kept(PostFilter(author: "nobody")) == [])
        #expect(kept(PostFilter(unreadOnly: true), read: ["1", "5"]) == ["2", "3", "4"])
        #expect(kept(PostFilter(author: "ada", unreadOnly: true), read: ["1"]) == ["3", "5"])
    }

    @Test func theLimitKeepsTheFirstPostsInDisplayOrderAcrossGroups() {
        let groups = PostOrdering(grouping: .author, sorting: .date, utcOffset: utc).arrange(posts)
        let limited = PostFilter(limit: 3).limited(groups)
        #expect(limited.flatMap { $0.posts.map(\.id) } == Array(groups.flatMap { $0.posts.map(\.id) }.prefix(3)))
        #expect(limited.allSatisfy { !$0.posts.isEmpty })
        #expect(PostFilter().limited(groups) == groups)
    }

    @Test func marksAreKeptAcrossChanges() throws {
        let root = TemporaryFolders.make("blogctl-marks")
        let marks = ReadMarks(server: try ServerURL("http://127.0.0.1:9"), environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"])
        #expect(try marks.load() == [])
        #expect(try marks.mark(["1", "2"], read: true) == 2)
        #expect(try marks.mark(["2", "3"], read: true) == 1)
        #expect(try marks.mark(["1", "9"], read: false) == 1)
        #expect(try marks.load() == ["2", "3"])
        // Issue 29: ids are compared byte by byte; canonically equivalent ids are two posts.
        #expect(try marks.mark(["\u{E9}"], read: true) == 1)
        #expect(try marks.load().contains("\u{E9}") && !marks.load().contains("e\u{301}"))
        #expect(try marks.mark(["e\u{301}"], read: true) == 1)
        #expect(try marks.load().count == 4)
        #expect(try marks.mark(["\u{E9}", "e\u{301}"], read: false) == 2)
        // Post 2 of one server is not post 2 of another.
        let other = ReadMarks(server: try ServerURL("http://127.0.0.1:10"), environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"])
        #expect(try other.load() == [])
        let attributes = try FileManager.default.attributesOfItem(atPath: root + "/data/blogctl")
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func concurrentMarkersLoseNothing() async throws {
        let root = TemporaryFolders.make("blogctl-marks")
        let marks = ReadMarks(server: try ServerURL("http://127.0.0.1:9"), environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"])
        try marks.mark(["seed"], read: true)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<16 { group.addTask { _ = try? marks.mark(["post-\(index)"], read: true) } }
        }
        #expect(try marks.load().count == 17)
    }

    @Test func theBrowserIsBROWSERThenXdgOpenAndOnlyWebLinksOpen() {
        #expect(BrowserLauncher.candidates(environment: ["BROWSER": "firefox:w3m -o x %s"]) ==
                [["firefox"], ["w3m", "-o", "x", "%s"], ["xdg-open"]])
        #expect(BrowserLauncher.candidates(environment: [:]) == [["xdg-open"]])
        #expect(BrowserLauncher.isOpenable("https://example.com/a?b=c"))
        #expect(BrowserLauncher.isOpenable("HTTP://example.com"))
        for hostile in ["file:///etc/passwd", "javascript:alert(1)", "-x", "smb://host/share", "https://a b", "https://a\nb"] {
            #expect(!BrowserLauncher.isOpenable(hostile), "\(hostile)")
        }
        #expect(throws: ToolError.self) { try BrowserLauncher.open("https://x", environment: ["PATH": "/nonexistent", "BROWSER": "nope"]) }
    }
}
