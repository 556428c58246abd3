import ScreenKit
import ToolboxKit

/// The reading pane of `blogctl ui`: one post's header and rendered body, scrolled as in
/// `less`, with find (`/`, `n`, `N`) and its numbered links (`l`). While the body downloads it
/// shows bytes, total and rate; every key still works. Pure state, as every screen.
public struct PostReader: Sendable {
    public enum Load: Sendable, Equatable {
        case loading(done: Int64, total: Int64?, seconds: Double)
        case failed(String)
        case loaded
    }

    /// What a key asks of the screen around the pane.
    public enum Request: Sendable, Equatable {
        case handled, back, next, previous, toggleRead, reload, help, openLink(String)
    }

    enum Action: Sendable, Equatable {
        case motion(Motion), find, findNext, findPrevious, next, previous, links, toggleRead, reload, help, back
    }

    static let keys = KeyTable<Action>(
        Motion.bindings.map { ($0.keys, $0.label, Action.motion($0.action)) } + [
            ([.character("/")], "find in the post (Enter finds, an empty find repeats the last)", .find),
            ([.character("n")], "next match", .findNext),
            ([.character("N")], "previous match", .findPrevious),
            ([.character("]")], "next post in the list", .next),
            ([.character("[")], "previous post in the list", .previous),
            ([.character("l")], "the post's links (Enter opens one in $BROWSER)", .links),
            ([.character("u")], "mark read or unread", .toggleRead),
            ([.character("r")], "fetch the post again", .reload),
            ([.character("?")], "this help", .help),
            ([.escape, .character("q"), .left], "back to the list (stops a download)", .back),
        ])

    public let metadata: PostMetadata
    public private(set) var load = Load.loading(done: 0, total: nil, seconds: 0)
    public private(set) var pane = TextPane()
    public private(set) var links: [String] = []
    /// The link list (`l`) while it is open.
    public private(set) var linkList: ListView?
    /// The find prompt while it is open.
    public private(set) var finding: TextField?
    public private(set) var notice: String?
    private var lastFind = ""

    public init(metadata: PostMetadata) {
        self.metadata = metadata
        pane.lines = header
    }

    public var isLoading: Bool { if case .loading = load { true } else { false } }

    private var header: [TextPane.Line] {
        [TextPane.Line(metadata.title, style: .heading), TextPane.Line(PostPage.byline(metadata), style: .dim), TextPane.Line("")]
    }

    mutating func progress(done: Int64, total: Int64?, seconds: Double) {
        guard isLoading else { return }
        load = .loading(done: done, total: total, seconds: seconds)
    }

    /// The rendered body arrived (first, or again at a new width: the place is kept).
    mutating func loaded(text: SpooledText, links: [String]) {
        // Laid out again at a new width: the same share of the post stays above the view.
        let above = load == .loaded ? pane.fractionAbove : 0
        pane.lines = header
        pane.body = text
        if above > 0 { pane.scroll(to: Int(above * Double(pane.rowCount))) }
        self.links = links
        load = .loaded
    }

    mutating func failed(_ message: String) { load = .failed(message) }

    mutating func reloading() { load = .loading(done: 0, total: nil, seconds: 0) }

    public mutating func handle(_ key: KeyPress) -> Request {
        notice = nil
        if finding != nil { return handleFind(key) }
        if linkList != nil { return handleLinks(key) }
        switch Self.keys.action(for: key) {
        case .motion?: _ = pane.handle(key)
        case .find?: finding = TextField(label: "/")
        case .findNext?: find(forward: true)
        case .findPrevious?: find(forward: false)
        case .next?: return .next
        case .previous?: return .previous
        case .links?:
            guard load == .loaded else { return .handled }
            if links.isEmpty { notice = "this post has no links" } else {
                linkList = ListView(items: links.enumerated().map { "[\($0.offset + 1)] \($0.element)" })
            }
        case .toggleRead?: return .toggleRead
        case .reload?: return .reload
        case .help?: return .help
        case .back?: return .back
        case nil: break
        }
        return .handled
    }

    private mutating func handleFind(_ key: KeyPress) -> Request {
        guard var field = finding else { return .handled }
        switch key {
        case .escape: finding = nil
        case .enter:
            finding = nil
            // As in less: an empty find repeats the last one.
            if !field.text.isEmpty { lastFind = field.text }
            if !pane.find(lastFind, includingTop: true), !lastFind.isEmpty { notice = "not found: " + lastFind }
        default:
            _ = field.handle(key)
            finding = field
        }
        return .handled
    }

    private mutating func find(forward: Bool) {
        guard !lastFind.isEmpty else {
            notice = "nothing to find yet: / first"
            return
        }
        if !pane.find(lastFind, forward: forward) { notice = "not found: " + lastFind }
    }

    private mutating func handleLinks(_ key: KeyPress) -> Request {
        guard var list = linkList else { return .handled }
        switch key {
        case .escape, .character("q"), .character("l"):
            linkList = nil
            return .handled
        case .enter:
            guard let index = list.selection else { return .handled }
            linkList = nil
            return .openLink(links[index])
        default:
            _ = list.handle(key)
            linkList = list
            return .handled
        }
    }

    public mutating func draw(into canvas: inout Canvas, rect: Rect, tick: Int) {
        switch load {
        case .loaded:
            let promptRows = finding == nil ? 0 : 1
            pane.draw(into: &canvas, rect: Rect(row: rect.row, column: rect.column, rows: rect.rows - promptRows, columns: rect.columns))
        case .loading(let done, let total, let seconds):
            drawHeader(into: &canvas, rect: rect)
            canvas.put(Spinner.frame(tick) + " " + Self.progressText(done: done, total: total, seconds: seconds),
                       row: rect.row + 3, column: rect.column, width: rect.columns)
            if let total, total > 0 {
                let width = max(rect.columns - 2, 1)
                let filled = Int(Double(width) * min(1, Double(done) / Double(total)))
                canvas.put(String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled),
                           row: rect.row + 4, column: rect.column, width: rect.columns)
            }
            canvas.put("Esc stops the download and goes back", row: rect.row + 6, column: rect.column, width: rect.columns, style: .dim)
        case .failed(let message):
            drawHeader(into: &canvas, rect: rect)
            canvas.put(message, row: rect.row + 3, column: rect.column, width: rect.columns, style: Style(bold: true, color: .red))
            canvas.put("r tries again · Esc back", row: rect.row + 5, column: rect.column, width: rect.columns, style: .dim)
        }
        if var finding {
            _ = finding.draw(into: &canvas, row: rect.row + rect.rows - 1, column: rect.column, width: rect.columns, focused: true)
        }
        if var linkList {
            let box = Rect(row: rect.row + 1, column: rect.column + 2, rows: max(min(links.count + 2, rect.rows - 2), 3),
                           columns: max(rect.columns - 4, 10))
            Frame.draw(into: &canvas, rect: box, title: "links: Enter opens, Esc closes")
            for row in box.row + 1..<box.row + box.rows - 1 { canvas.fill(row: row, column: box.column + 1, width: box.columns - 2, style: .plain) }
            linkList.draw(into: &canvas, rect: Rect(row: box.row + 1, column: box.column + 1, rows: box.rows - 2, columns: box.columns - 2))
            self.linkList = linkList
        }
    }

    private func drawHeader(into canvas: inout Canvas, rect: Rect) {
        canvas.put(metadata.title, row: rect.row, column: rect.column, width: rect.columns, style: .heading)
        canvas.put(PostPage.byline(metadata), row: rect.row + 1, column: rect.column, width: rect.columns, style: .dim)
    }

    /// "downloading 1.2 MB of 8.0 MB (15%) · 400.0 kB/s"
    static func progressText(done: Int64, total: Int64?, seconds: Double) -> String {
        var text = "downloading " + ProgressDisplay.bytes(done)
        if let total, total > 0 { text += " of \(ProgressDisplay.bytes(total)) (\(Int(Double(done) * 100 / Double(total)))%)" }
        if seconds > 0, done > 0 { text += " · \(ProgressDisplay.bytes(Int64(Double(done) / seconds)))/s" }
        return text
    }
}
