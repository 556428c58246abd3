import CoreKit

/// Text that wraps to its width and scrolls: explanations, help, a post. Lines keep a style
/// each; a line longer than the width continues on the next row, broken at a space where one
/// is near, with the same indentation. The wrapping is kept until the text or the width
/// changes, so scrolling a long text costs only the rows drawn; a new width keeps the line
/// at the top in view. `layout` places it (before any draw), `draw` only paints. `find`
/// moves to a match, and matches are shown in reverse.
/// A text too long to hold (a post) follows `lines` as a `SpooledText` `body`, one row a line
/// (laid out for the width already), read a window at a time: memory does not grow with it.
public struct TextPane: Sendable {
    public struct Line: Sendable, Equatable {
        public var text: String
        public var style: Style
        public init(_ text: String, style: Style = .plain) {
            self.text = text
            self.style = style
        }
    }

    /// One wrapped row: its text, its style, and the line it comes from.
    struct Row: Sendable, Equatable {
        var text: String
        var style: Style
        var line: Int
    }

    /// New lines keep the position (a render at a new width, an explanation that changed).
    public var lines: [Line] {
        didSet {
            wrappedWidth = nil
            wrap()
        }
    }
    /// The first wrapped row shown.
    public private(set) var top = 0
    /// The line the top row comes from, kept across a new width.
    private var topLine = 0
    /// Where the pane is drawn, from the last `layout`.
    public private(set) var rect = Rect(row: 0, column: 0, rows: 10, columns: 80)
    private var pageSize: Int { max(rect.rows, 1) }
    private var rows: [Row] = []
    private var wrappedWidth: Int?
    /// What `find` looks for, lowercased; matches are highlighted while it is set.
    public private(set) var needle: String?

    /// Rows after `lines`, from a file: never wrapped, never held.
    public var body: SpooledText? {
        didSet {
            wrappedWidth = nil
            wrap()
        }
    }

    public init(lines: [Line] = []) {
        self.lines = lines
        wrap()
    }

    /// Places the pane in `rect`: the lines wrap for its width (unless they already are) and
    /// the view stays within the text.
    public mutating func layout(_ rect: Rect) {
        self.rect = rect
        wrap()
    }

    /// Where the view is, as less shows it: `Top`, `NN%` (of the rows above the view's end),
    /// `End`; nil when the whole text fits.
    public var position: String? {
        let count = rowCount
        guard count > pageSize else { return nil }
        if top == 0 { return "Top" }
        if top + pageSize >= count { return "End" }
        return "\((top + pageSize) * 100 / count)%"
    }

    /// The share of the text above the view, 0 to 1: kept when the text is laid out again.
    public var fractionAbove: Double { rowCount > 0 ? Double(top) / Double(rowCount) : 0 }

    /// Rows of the text at the last width drawn.
    public var rowCount: Int { rows.count + (body?.lineCount ?? 0) }

    /// Scrolls for a motion key; false when `key` is not one.
    public mutating func handle(_ key: KeyPress) -> Bool {
        guard let motion = Motion.of(key) else { return false }
        let maxTop = max(rowCount - pageSize, 0)
        switch motion {
        case .up, .down, .pageUp, .pageDown, .halfPageUp, .halfPageDown:
            scroll(to: min(max(motion.apply(to: top, count: Int.max, page: pageSize), 0), maxTop))
        case .first: scroll(to: 0)
        case .last: scroll(to: maxTop)
        }
        return true
    }

    /// Makes wrapped row `row` the first one shown.
    public mutating func scroll(to row: Int) {
        top = max(min(row, rowCount - 1), 0)
        topLine = top < rows.count ? rows[top].line : lines.count + top - rows.count
    }

    /// Moves to the next (or previous) row after the top one holding `text`, any case,
    /// wrapping round at the end; false when no row holds it. An empty `text` clears the find.
    @discardableResult
    public mutating func find(_ text: String, forward: Bool = true, includingTop: Bool = false) -> Bool {
        guard !text.isEmpty else {
            needle = nil
            return false
        }
        let needle = text.lowercased()
        self.needle = needle
        let count = rowCount
        guard count > 0 else { return false }
        let start = ((includingTop ? top : top + (forward ? 1 : -1)) % count + count) % count
        // Forward: from the start to the end, then from the top; backward: from the start to
        // the top, then from the end. Each part is the rows in memory, then the body's file.
        let parts = forward ? [start..<count, 0..<start] : [0..<start + 1, start + 1..<count]
        for part in parts {
            if let found = match(needle, in: part, last: !forward) {
                scroll(to: found)
                return true
            }
        }
        return false
    }

    /// The first (or last) row in `range` holding `needle` (lowercased).
    private func match(_ needle: String, in range: Range<Int>, last: Bool) -> Int? {
        let inRows = range.clamped(to: 0..<rows.count)
        let inBody = range.clamped(to: rows.count..<rowCount)
        func fromRows() -> Int? {
            let indices = Array(inRows)
            return (last ? indices.reversed() : indices).first { rows[$0].text.lowercased().contains(needle) }
        }
        func fromBody() -> Int? {
            guard let body, !inBody.isEmpty else { return nil }
            return body.line(containing: needle, in: (inBody.lowerBound - rows.count)..<(inBody.upperBound - rows.count), last: last)
                .map { $0 + rows.count }
        }
        return last ? fromBody() ?? fromRows() : fromRows() ?? fromBody()
    }

    public func draw(into canvas: inout Canvas) {
        let bodyStart = max(top - rows.count, 0)
        let bodyRows = body?.lines(bodyStart..<bodyStart + rect.rows) ?? []
        for offset in 0..<rect.rows where top + offset < rowCount {
            let index = top + offset
            let row = index < rows.count ? rows[index]
                : Row(text: index - rows.count - bodyStart < bodyRows.count ? bodyRows[index - rows.count - bodyStart] : "",
                      style: .plain, line: lines.count + index - rows.count)
            canvas.put(row.text, row: rect.row + offset, column: rect.column, width: rect.columns, style: row.style)
            if let needle {
                for (column, width) in Self.matches(of: needle, in: row.text) {
                    canvas.highlight(row: rect.row + offset, column: rect.column + column, width: width, style: .reverse)
                }
            }
        }
    }

    /// Wraps every line for the rect's width unless they are wrapped for it already, and keeps
    /// the view within the text.
    private mutating func wrap() {
        defer { top = min(top, max(rowCount - rect.rows, 0)) }
        let width = rect.columns
        guard wrappedWidth != width else { return }
        wrappedWidth = width
        rows = []
        top = 0
        for (number, line) in lines.enumerated() {
            if number == topLine { top = rows.count }
            for text in Self.wrap(line.text, width: width) { rows.append(Row(text: text, style: line.style, line: number)) }
        }
        if topLine >= lines.count { top = rows.count + topLine - lines.count }
    }

    /// Where `needle` (lowercased) occurs in `text`: (column, width) of each match.
    static func matches(of needle: String, in text: String) -> [(Int, Int)] {
        let characters = Array(text)
        let wanted = Array(needle)
        guard !wanted.isEmpty, characters.count >= wanted.count else { return [] }
        var found: [(Int, Int)] = []
        var column = 0
        var index = 0
        while index < characters.count {
            if index + wanted.count <= characters.count,
               (0..<wanted.count).allSatisfy({ String(characters[index + $0]).lowercased() == String(wanted[$0]) }) {
                let width = TextWidth.of(String(characters[index..<index + wanted.count]))
                found.append((column, width))
                column += width
                index += wanted.count
            } else {
                column += TextWidth.of(String(characters[index]))
                index += 1
            }
        }
        return found
    }

    /// `text` broken into rows of at most `width` columns.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        guard TextWidth.of(text) > width else { return [text] }
        let indent = String(text.prefix { $0 == " " }.prefix(max(width / 2, 0)))
        var rows: [String] = []
        var current = ""
        var currentWidth = 0
        var lastSpace: String.Index?
        for character in text {
            let characterWidth = TextWidth.of(String(character))
            if currentWidth + characterWidth > width, character == " " {
                // The space a row breaks at is not carried to the next row.
                rows.append(current)
                current = indent
                currentWidth = TextWidth.of(current)
                lastSpace = nil
                continue
            }
            if currentWidth + characterWidth > width {
                if let space = lastSpace, current.distance(from: current.startIndex, to: space) > indent.count {
                    let rest = String(current[current.index(after: space)...])
                    rows.append(String(current[..<space]))
                    current = indent + rest
                } else {
                    rows.append(current)
                    current = indent
                }
                currentWidth = TextWidth.of(current)
                lastSpace = nil
            }
            if character == " " { lastSpace = current.endIndex }
            current.append(character)
            currentWidth += characterWidth
        }
        if !current.isEmpty { rows.append(current) }
        return rows
    }
}
