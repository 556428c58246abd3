import CoreKit

/// A single-line text field with the editing keys people expect from a shell: ←/→,
/// Home/End (Ctrl-A/Ctrl-E), Backspace, Delete, Ctrl-U (erase to the start), Ctrl-W (erase
/// the word before the cursor), Ctrl-K (erase to the end). Letters are text, never commands.
public struct TextField: Sendable, Equatable {
    public var label: String
    /// The text as characters, so the cursor never stands inside one.
    private var characters: [Character] = []
    /// The cursor: the number of characters before it.
    public private(set) var cursor = 0

    public init(label: String, text: String = "") {
        self.label = label
        self.text = text
    }

    public var text: String {
        get { String(characters) }
        set {
            characters = Array(newValue)
            cursor = characters.count
        }
    }

    /// Edits for `key`; false when the key is not an editing key (Tab, Enter, Esc, ↑/↓).
    public mutating func handle(_ key: KeyPress) -> Bool {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
            regroup()
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, characters.count)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .backspace:
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .control("d"):
            guard cursor < characters.count else { return true }
            characters.remove(at: cursor)
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("k"):
            characters.removeLast(characters.count - cursor)
        case .control("w"):
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        if cursor > 0 || !characters.isEmpty { regroup() }
        return true
    }

    /// Groups the text into characters again after an edit: a combining mark typed after its
    /// base, or a base typed before a mark, makes one character with it, and the cursor moves
    /// to the end of that character, never inside it.
    private mutating func regroup() {
        let before = characters[..<cursor].reduce(0) { $0 + $1.unicodeScalars.count }
        let grouped = Array(String(characters))
        guard grouped.count != characters.count else { return }
        characters = grouped
        var scalars = 0
        cursor = 0
        while cursor < characters.count && scalars < before {
            scalars += characters[cursor].unicodeScalars.count
            cursor += 1
        }
    }

    /// Draws `label text` on `row`, scrolled so the cursor shows; the cursor is a reversed
    /// cell while focused. Returns the column of the cursor.
    @discardableResult
    public func draw(into canvas: inout Canvas, row: Int, column: Int, width: Int, focused: Bool) -> Int {
        let start = label.isEmpty ? column : canvas.put(label + " ", row: row, column: column, width: width)
        let room = max(column + width - start - 1, 1)
        // The text scrolls as little as shows the cursor (counted back from it, so a long
        // paste costs one pass); drawing keeps no state.
        var scroll = cursor
        var used = 0
        while scroll > 0, used + TextWidth.of(characters[scroll - 1]) <= room {
            used += TextWidth.of(characters[scroll - 1])
            scroll -= 1
        }
        let shown = String(characters[scroll...])
        canvas.fill(row: row, column: start, width: room + 1, style: .plain)
        canvas.put(shown, row: row, column: start, width: room, style: focused ? .bold : .plain)
        let cursorColumn = start + TextWidth.of(String(characters[scroll..<cursor]))
        if focused {
            canvas.highlight(row: row, column: cursorColumn, width: 1, style: .reverse)
        } else if characters.isEmpty {
            canvas.put("…", row: row, column: start, width: 1, style: .dim)
        }
        return cursorColumn
    }
}
