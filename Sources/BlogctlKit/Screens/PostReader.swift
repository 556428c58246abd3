import ScreenKit
import ToolboxKit

/// The reading pane of `blogctl ui`: one post's header and rendered body, scrolled as in
/// `less`, with find (`/`, `n`, `N`) and its numbered links (`l`). While the body downloads it
/// shows bytes, total and rate; every key still works. Pure state, as every screen: `layout`
/// places it, `draw` only paints.
public struct PostReader: Sendable {
    public enum Load: Sendable, Equatable {
        case loading(done: Int64, total: Int64?, seconds: Double)
        case failed(String)
        case loaded
    }

    /// What a key asks of the screen around the pane, besides the shared replies.
    public enum Request: Sendable, Equatable {
        case next, previous, toggleRead, reload, openLink(String)
        /// Queue the post's files and fetch them (`blogctl download`).
        case download(PostMetadata)
    }

    enum Action: Sendable, Equatable {
        case motion(Motion), find, findNext, findPrevious, next, previous, links, toggleRead, reload, help, back, percent
        case openPage, download
    }

    static let keys = KeyTable<Action>(
        Motion.bindings.map { .init($0.keys, $0.label, Action.motion($0.action), hint: $0.action == .pageDown ? "page" : nil) } + [
            .init([.character("/")], "find in the post (Enter finds, an empty find repeats the last)", .find, hint: "find"),
            .init([.character("n")], "next match", .findNext),
            .init([.character("N")], "previous match", .findPrevious),
            .init([.character("]")], "next post in the list", .next, hint: "next"),
            .init([.character("[")], "previous post in the list", .previous),
            .init([.character("l")], "the post's links (Enter opens one in $BROWSER)", .links, hint: "links"),
            .init([.character("o")], "open the entry's own page in $BROWSER", .openPage),
            .init([.character("e")], "download the entry's files (a podcast's episode) into the download folder, as newsboat enqueues", .download),
            .init([.character("u")], "mark read or unread", .toggleRead, hint: "unread"),
            .init([.character("r")], "fetch the post again", .reload),
            .init([.character("%")], "after a number N: go to N percent of the post, as less does (50% the middle)", .percent),
            .init([.character("?"), .function(1)], "this help", .help),
            .init([.escape, .character("q"), .left], "back to the list (stops a download)", .back, hint: "back"),
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
    /// Digits typed before a command, as less takes them (`50%`); any other key drops them.
    public private(set) var count: Int?
    private(set) var rect = Rect(row: 1, column: 1, rows: 21, columns: 78)

    public init(metadata: PostMetadata) {
        self.metadata = metadata
        pane.lines = header
    }

    public var isLoading: Bool { if case .loading = load { true } else { false } }

    /// Places the reader in `rect`: the pane above the find prompt, the link box inside.
    mutating func layout(_ rect: Rect) {
        self.rect = rect
        pane.layout(Rect(row: rect.row, column: rect.column, rows: max(rect.rows - (finding == nil ? 0 : 1), 0), columns: rect.columns))
        let box = linkBox
        linkList?.layout(box.inner)
    }

    /// The link list's box, over the pane.
    private var linkBox: Rect {
        Rect(row: rect.row + 1, column: rect.column + 2, rows: max(min(links.count + 2, rect.rows - 2), 3), columns: max(rect.columns - 4, 10))
    }

    private var header: [TextPane.Line] {
        [TextPane.Line(metadata.title, style: .heading), TextPane.Line(PostPage.byline(metadata), style: .dim)]
            + PostPage.fields(metadata).map { TextPane.Line($0, style: .dim) } + [TextPane.Line("")]
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

    public mutating func handle(_ key: KeyPress) -> SubScreenReply<Request> {
        notice = nil
        if finding != nil { return handleFind(key) }
        if linkList != nil { return handleLinks(key) }
        if case .character(let character) = key, let digit = character.wholeNumberValue, character.isASCII {
            count = min((count ?? 0) * 10 + digit, 1_000_000)
            return .handled
        }
        let typed = count
        count = nil
        let action: Action
        switch Self.keys.press(key, disabled: disabledReason) {
        case .action(let pressed): action = pressed
        case .disabled(let reason):
            notice = reason
            return .handled
        case .unbound: return .ignored
        }
        switch action {
        case .percent:
            guard let typed else { return .handled }
            pane.scroll(to: pane.rowCount * min(typed, 100) / 100)
        case .motion:
            // `Ng` and `NG`: line N, as less goes there.
            if let typed, key == .character("g") || key == .character("G") { pane.scroll(to: max(typed - 1, 0)) } else { _ = pane.handle(key) }
        case .find:
            finding = TextField(label: "/")
            layout(rect)
        case .findNext: find(forward: true)
        case .findPrevious: find(forward: false)
        case .next: return .request(.next)
        case .previous: return .request(.previous)
        case .links:
            guard load == .loaded else { return .handled }
            if links.isEmpty { notice = "this post has no links" } else {
                linkList = ListView(items: links.enumerated().map { "[\($0.offset + 1)] \($0.element)" })
                layout(rect)
            }
        case .openPage: return .request(.openLink(metadata.link ?? ""))
        case .download: return .request(.download(metadata))
        case .toggleRead: return .request(.toggleRead)
        case .reload: return .request(.reload)
        case .help: return .help
        case .back: return .back
        }
        return .handled
    }

    /// Why a key does nothing for this post (help marks it so): an API post has no page of
    /// its own, and one that carries no file has nothing to download.
    func disabledReason(_ action: Action) -> String? {
        switch action {
        case .openPage where metadata.link == nil: "this post has no page of its own"
        case .download where (metadata.enclosures ?? []).isEmpty: "this post carries no file"
        default: nil
        }
    }

    private mutating func handleFind(_ key: KeyPress) -> SubScreenReply<Request> {
        guard var field = finding else { return .handled }
        defer { layout(rect) }
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

    private mutating func handleLinks(_ key: KeyPress) -> SubScreenReply<Request> {
        guard var list = linkList else { return .handled }
        switch key {
        case .escape, .character("q"), .character("l"):
            linkList = nil
            return .handled
        case .enter:
            guard let index = list.selection else { return .handled }
            linkList = nil
            return .request(.openLink(links[index]))
        default:
            _ = list.handle(key)
            linkList = list
            return .handled
        }
    }

    public func draw(into canvas: inout Canvas, tick: Int) {
        switch load {
        case .loaded:
            pane.draw(into: &canvas)
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
            // Wrapped, never cut: the reason and what to do are often longer than the screen
            // is wide (issue 47); at most a third of the rows.
            let lines = TextPane.wrap(message, width: max(rect.columns, 10)).prefix(max(rect.rows / 3, 1))
            for (index, line) in lines.enumerated() {
                canvas.put(line, row: rect.row + 3 + index, column: rect.column, width: rect.columns, style: Style(bold: true, color: .red))
            }
            canvas.put("r tries again · Esc back", row: rect.row + 4 + lines.count, column: rect.column, width: rect.columns, style: .dim)
        }
        if let finding {
            finding.draw(into: &canvas, row: rect.row + rect.rows - 1, column: rect.column, width: rect.columns, focused: true)
        }
        if let linkList {
            Frame.draw(into: &canvas, rect: linkBox, title: "links: Enter opens, Esc closes")
            linkList.draw(into: &canvas)
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
