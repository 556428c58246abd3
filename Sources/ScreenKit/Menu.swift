import CoreKit

/// A pop-up menu: arrows and Enter choose, Esc closes, and typing moves to the first entry
/// that starts with what was typed (as in a file dialog).
public struct Menu: Sendable, Equatable {
    public var title: String
    public var entries: [String]
    public private(set) var cursor = 0
    private var typed = ""

    public enum Result: Sendable, Equatable {
        case open
        case chosen(Int)
        case closed
    }

    public init(title: String, entries: [String]) {
        self.title = title
        self.entries = entries
    }

    public mutating func handle(_ key: KeyPress) -> Result {
        switch key {
        case .enter:
            return entries.isEmpty ? .closed : .chosen(cursor)
        case .escape:
            return .closed
        case .character("q") where typed.isEmpty:
            return .closed
        case .character(let character):
            typed.append(character)
            if let match = entries.firstIndex(where: { $0.lowercased().hasPrefix(typed.lowercased()) }) {
                cursor = match
            } else {
                typed = String(character)
                if let match = entries.firstIndex(where: { $0.lowercased().hasPrefix(typed.lowercased()) }) { cursor = match }
            }
            return .open
        case .backspace:
            typed = String(typed.dropLast())
            return .open
        default:
            if let motion = Motion.of(key) {
                cursor = motion.apply(to: cursor, count: entries.count, page: entries.count)
                typed = ""
            }
            return .open
        }
    }

    /// Draws a framed box centred on the canvas.
    public func draw(into canvas: inout Canvas) {
        let width = min(max((entries.map(TextWidth.of) + [TextWidth.of(title)]).max() ?? 0, 10) + 4, canvas.columns)
        let height = min(entries.count + 2, canvas.rows)
        let box = Rect(row: max((canvas.rows - height) / 2, 0), column: max((canvas.columns - width) / 2, 0), rows: height, columns: width)
        Frame.draw(into: &canvas, rect: box, title: title)
        for (offset, entry) in entries.prefix(max(height - 2, 0)).enumerated() {
            let row = box.row + 1 + offset
            canvas.put(" " + entry, row: row, column: box.column + 1, width: width - 2)
            if offset == cursor { canvas.highlight(row: row, column: box.column + 1, width: width - 2, style: .selected) }
        }
    }
}
