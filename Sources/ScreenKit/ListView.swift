/// A scrolling list with a cursor, optional section headers, and filter-as-you-type (`/`).
/// Pure state: keys move it, `draw` paints the visible part. Items are whole lines of text;
/// the cursor is on an item (never on a header), and the item under it is `selection`.
public struct ListView: Sendable {
    public struct Section: Sendable, Equatable {
        public var title: String?
        public var items: [String]
        public init(title: String? = nil, items: [String]) {
            self.title = title
            self.items = items
        }
    }

    /// One row as drawn: a header, or an item by its index across all sections.
    enum Row: Sendable, Equatable {
        case header(String)
        case item(Int)
    }

    public private(set) var sections: [Section]
    private var texts: [String] = []
    private(set) var rows: [Row] = []
    /// The rows' indices that are items (where the cursor may stand).
    private var itemRows: [Int] = []
    /// The cursor, as an index into `itemRows`.
    public private(set) var cursor = 0
    /// The first row shown.
    private(set) var top = 0
    /// The filter being typed, while `/` is active; the filter in force otherwise.
    public private(set) var filter = TextField(label: "/")
    public private(set) var isFiltering = false
    /// Rows visible at the last draw (for paging).
    public var pageSize = 10

    public init(sections: [Section] = []) {
        self.sections = sections
        rebuild(keeping: nil)
    }

    public init(items: [String]) { self.init(sections: [Section(items: items)]) }

    /// Replaces the items, keeping the cursor on the same index where it still exists.
    public mutating func setSections(_ sections: [Section]) {
        let kept = selection
        self.sections = sections
        rebuild(keeping: kept)
    }

    /// The selected item's index across all sections, nil when nothing matches.
    public var selection: Int? {
        guard cursor < itemRows.count, case .item(let index) = rows[itemRows[cursor]] else { return nil }
        return index
    }

    /// Items shown (after the filter) and items in all.
    public var shownCount: Int { itemRows.count }
    public var totalCount: Int { texts.count }

    /// Handles a key; false when the key is not the list's (the screen's own keys).
    public mutating func handle(_ key: KeyPress) -> Bool {
        if isFiltering {
            switch key {
            case .enter: isFiltering = false
            case .escape:
                isFiltering = false
                filter.text = ""
                rebuild(keeping: selection)
            case .up, .down, .pageUp, .pageDown: move(Motion.of(key)!)
            default:
                let before = filter.text
                guard filter.handle(key) else { return false }
                if filter.text != before { rebuild(keeping: selection) }
            }
            return true
        }
        if key == .character("/") {
            isFiltering = true
            return true
        }
        if let motion = Motion.of(key) {
            move(motion)
            return true
        }
        return false
    }

    public mutating func move(_ motion: Motion) {
        cursor = motion.apply(to: cursor, count: itemRows.count, page: pageSize)
    }

    /// Selects the item on a screen row of the last draw; false when that row holds none.
    public mutating func click(row: Int, in rect: Rect) -> Bool {
        let index = top + row - rect.row
        guard row >= rect.row, index < rows.count, let position = itemRows.firstIndex(of: index) else { return false }
        cursor = position
        return true
    }

    /// Draws the visible rows in `rect`, the selected one highlighted; the filter line takes
    /// the last row while `/` is active.
    public mutating func draw(into canvas: inout Canvas, rect: Rect, focused: Bool = true) {
        let showsFilter = isFiltering
        let height = max(rect.rows - (showsFilter ? 1 : 0), 1)
        pageSize = height
        let cursorRow = itemRows.isEmpty ? 0 : itemRows[cursor]
        if cursorRow < top { top = cursorRow }
        if cursorRow >= top + height { top = cursorRow - height + 1 }
        // A header directly above the cursor stays in view when there is room.
        if top > 0, top == cursorRow, case .header = rows[top - 1] { top -= 1 }
        top = max(0, min(top, max(rows.count - height, 0)))
        for offset in 0..<height where top + offset < rows.count {
            let y = rect.row + offset
            switch rows[top + offset] {
            case .header(let title):
                canvas.put(title, row: y, column: rect.column, width: rect.columns, style: .heading)
            case .item(let index):
                let isCursor = !itemRows.isEmpty && top + offset == cursorRow
                canvas.put(" " + texts[index], row: y, column: rect.column, width: rect.columns)
                if isCursor { canvas.highlight(row: y, column: rect.column, width: rect.columns, style: focused ? .selected : .bold) }
            }
        }
        if rows.isEmpty || itemRows.isEmpty {
            canvas.put(filter.text.isEmpty ? " (nothing to show)" : " (nothing matches)", row: rect.row, column: rect.column,
                       width: rect.columns, style: .dim)
        }
        if showsFilter { filter.draw(into: &canvas, row: rect.row + rect.rows - 1, column: rect.column, width: rect.columns, focused: true) }
    }

    /// Recomputes the rows for the filter, keeping the cursor on item `kept` if it still shows.
    private mutating func rebuild(keeping kept: Int?) {
        texts = sections.flatMap(\.items)
        let needle = filter.text.lowercased()
        rows = []
        itemRows = []
        var index = 0
        for section in sections {
            var matched: [Int] = []
            for (offset, text) in section.items.enumerated() where needle.isEmpty || text.lowercased().contains(needle) {
                matched.append(index + offset)
            }
            index += section.items.count
            guard !matched.isEmpty else { continue }
            if let title = section.title { rows.append(.header(title)) }
            for item in matched {
                itemRows.append(rows.count)
                rows.append(.item(item))
            }
        }
        if let kept, let position = itemRows.firstIndex(where: { rows[$0] == .item(kept) }) {
            cursor = position
        } else {
            cursor = min(cursor, max(itemRows.count - 1, 0))
        }
    }
}
