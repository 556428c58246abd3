import ToolboxKit

/// Text that wraps to its width and scrolls: explanations, help, a post. Lines keep a style
/// each; a line longer than the width continues on the next row, broken at a space where one
/// is near, with the same indentation.
public struct TextPane: Sendable {
    public struct Line: Sendable, Equatable {
        public var text: String
        public var style: Style
        public init(_ text: String, style: Style = .plain) {
            self.text = text
            self.style = style
        }
    }

    public var lines: [Line] { didSet { top = min(top, max(lines.count - 1, 0)) } }
    /// The first wrapped row shown.
    public private(set) var top = 0
    private var pageSize = 10
    private var wrappedCount = 0

    public init(lines: [Line] = []) { self.lines = lines }

    /// Scrolls for a motion key; false when `key` is not one.
    public mutating func handle(_ key: KeyPress) -> Bool {
        guard let motion = Motion.of(key) else { return false }
        let maxTop = max(wrappedCount - pageSize, 0)
        switch motion {
        case .up, .down, .pageUp, .pageDown, .halfPageUp, .halfPageDown:
            top = min(max(motion.apply(to: top, count: Int.max, page: pageSize), 0), maxTop)
        case .first: top = 0
        case .last: top = maxTop
        }
        return true
    }

    public mutating func draw(into canvas: inout Canvas, rect: Rect) {
        let rows = lines.flatMap { line in Self.wrap(line.text, width: rect.columns).map { ($0, line.style) } }
        wrappedCount = rows.count
        pageSize = max(rect.rows, 1)
        top = min(top, max(rows.count - rect.rows, 0))
        for offset in 0..<rect.rows where top + offset < rows.count {
            let (text, style) = rows[top + offset]
            canvas.put(text, row: rect.row + offset, column: rect.column, width: rect.columns, style: style)
        }
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
