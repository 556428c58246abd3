import CoreKit
import ScreenKit
import Testing
@testable import BlogctlKit
@testable import BlogctlEngines

/// Issue 47: the reader takes a number before a command, as less does: `50%` goes to the
/// middle, `10g` to line 10; any other key drops the number.
@Suite struct PostReaderCountTests {
    @Test func aNumberThenPercentOrG() throws {
        var reader = PostReader(metadata: Fixtures.post("r1", "A long post", "2018-06-04T09:30:00Z", "Ann"))
        reader.layout(Rect(row: 1, column: 0, rows: 20, columns: 80))
        reader.loaded(text: try SpooledText.of((1...1000).map { "line \($0)" }), links: [])
        let rows = reader.pane.rowCount
        for key in "50%" { _ = reader.handle(.character(key)) }
        #expect(reader.pane.top == rows / 2)
        for key in "100%" { _ = reader.handle(.character(key)) }
        #expect(reader.pane.top == rows - 1)
        for key in "10g" { _ = reader.handle(.character(key)) }
        #expect(reader.pane.top == 9)
        // A number dropped by another key: `%` alone does nothing.
        for key in "5" { _ = reader.handle(.character(key)) }
        _ = reader.handle(.character("n"))
        #expect(reader.count == nil)
        _ = reader.handle(.character("%"))
        #expect(reader.pane.top == 9)
        _ = reader.handle(.character("g"))
        #expect(reader.pane.top == 0)
    }

    /// Issue 47: a failure's message is wrapped, never cut, at any width.
    @Test func aLongFailureIsWrappedNotCut() {
        var reader = PostReader(metadata: Fixtures.post("r1", "A post", "2018-06-04T09:30:00Z", "Ann"))
        reader.layout(Rect(row: 1, column: 1, rows: 14, columns: 58))
        let message = "not cached, and the server cannot be reached: connection refused (/post-metadata/r1); blogctl prefetch keeps posts for offline reading"
        reader.failed(message)
        var canvas = Canvas(rows: 16, columns: 60)
        reader.draw(into: &canvas, tick: 0)
        let text = (0..<16).map { canvas.line($0).trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains(message), "\(text)")
        #expect(text.contains("r tries again · Esc back"))
    }
}

/// Issue 65: a feed entry's page and files from the reader: `o` opens the page, `e` asks for
/// the files; each does nothing on a post without, says why, and help marks it so.
@Suite struct PostReaderEntryKeysTests {
    @Test func pageAndFilesKeys() {
        var post = Fixtures.post("e1", "An episode", "2018-06-04T09:30:00Z", "Ann")
        var plain = PostReader(metadata: post)
        #expect(plain.handle(.character("o")) == .handled && plain.notice == "o: this post has no page of its own")
        #expect(plain.handle(.character("e")) == .handled && plain.notice == "e: this post carries no file")
        let help = PostReader.keys.helpLines(disabled: plain.disabledReason).map(\.label)
        #expect(help.contains { $0.hasPrefix("download the entry's files") && $0.hasSuffix("(not now: this post carries no file)") }, "\(help)")
        post.link = "https://c.example/e1"
        post.enclosures = [Enclosure(url: "https://c.example/e1.mp3")]
        var episode = PostReader(metadata: post)
        #expect(episode.handle(.character("o")) == .request(.openLink("https://c.example/e1")))
        #expect(episode.handle(.character("e")) == .request(.download(post)))
    }
}
