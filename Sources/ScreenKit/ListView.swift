/// A scrolling list with a cursor, optional section headers, and filter-as-you-type (`/`).
/// Pure state: `layout` gives it its rect (before any draw), keys move it and keep the cursor
/// in view, `draw` paints the visible part and changes nothing. An item is `linesPerItem` rows
/// (its text's lines, or what the screen draws for it); the cursor is on an item (never on a
/// header), and the item under it is `selection`.
public struct ListView: Sendable {
    public struct Section: Sendable, Equatable {
        public var title: String?
        public var items: [String]
        public init(title: String? = nil, items: [String]) {
            self.title = title
            self.items = items
        }
    }

    /// One row as drawn: a header, or line `line` of an item (by its index across all sections).
    enum Row: Sendable, Equatable {
        case header(String)
        case item(Int, line: Int)
    }

    /// Draws line `line` of item `index` at `row`, `column`, `width` columns (a screen's own
    /// layout of its items); the list highlights the selected item afterwards.
    public typealias ItemDrawer = (_ canvas: inout Canvas, _ index: Int, _ line: Int, _ row: Int, _ column: Int, _ width: Int) -> Void

    public private(set) var sections: [Section]
    private var texts: [String] = []
    /// Each item's text lowercased, as bytes: what the filter searches, made at the first key
    /// typed into a filter after `setSections`, so that each key costs one byte search per item
    /// (and a list nobody filters costs nothing).
    private var folded: FoldedTexts?
    private var searchText: (@Sendable (Int) -> String)?
    /// The last filter searched and the items it matched: a key that lengthens it searches
    /// only those (as fzf narrows), not every item again.
    private var narrowed: (needle: [UInt8], items: [Int])?
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
    /// Where the list is drawn, from the last `layout`.
    public private(set) var rect = Rect(row: 0, column: 0, rows: 10, columns: 40)
    /// Rows of items visible (the filter line takes the last row while it is typed).
    public var pageSize: Int { max(rect.rows - (isFiltering ? 1 : 0), 1) }
    /// What the keys do while a filter is typed (every other key edits it).
    public enum FilterAction: Sendable, Equatable { case keep, clear, move(Motion) }
    public static let filterKeys = KeyTable<FilterAction>([
        .init([.enter], "keep the filter", .keep, hint: "keeps it"),
        .init([.escape], "clear the filter", .clear, hint: "clears it"),
        .init([.up], "move up", .move(.up), hint: "move", shownAs: "↑/↓"),
        .init([.down], "move down", .move(.down)),
        .init([.pageUp], "page up", .move(.pageUp)),
        .init([.pageDown], "page down", .move(.pageDown)),
    ])
    /// The footer while a filter is typed.
    public static var filterHints: [String] { filterKeys.hints }
    /// Rows each item takes: an item's text has as many lines.
    public let linesPerItem: Int

    public init(sections: [Section] = [], linesPerItem: Int = 1) {
        self.sections = sections
        self.linesPerItem = max(linesPerItem, 1)
        fold()
        rebuild(keeping: nil)
    }

    public init(items: [String]) { self.init(sections: [Section(items: items)]) }

    /// Places the list in `rect`: what paging and clicks count with, and what `draw` fills.
    public mutating func layout(_ rect: Rect) {
        self.rect = rect
        reveal()
    }

    /// Replaces the items, keeping the cursor on the same index where it still exists.
    /// `searchText`: what the filter searches for item `index` (across all sections), when not
    /// its text: a screen that draws its own items gives short items and the whole text here,
    /// made only once a filter is typed, never for a first frame.
    public mutating func setSections(_ sections: [Section], searchText: (@Sendable (Int) -> String)? = nil) {
        let kept = selection
        self.sections = sections
        self.searchText = searchText
        fold()
        rebuild(keeping: kept)
    }

    /// Replaces the text of item `index` (across all sections) and nothing else: one item
    /// changed costs what one item costs, not a `setSections` of 100,000. Under a filter the
    /// item may now match or not, and the filter is searched again.
    public mutating func replaceItem(_ index: Int, with text: String) {
        guard texts.indices.contains(index) else { return }
        var start = 0
        for section in sections.indices {
            let count = sections[section].items.count
            if index < start + count {
                sections[section].items[index - start] = text
                break
            }
            start += count
        }
        texts[index] = text
        folded = nil
        narrowed = nil
        if !filter.text.isEmpty { rebuild(keeping: selection) }
    }

    /// The selected item's index across all sections, nil when nothing matches.
    public var selection: Int? {
        guard cursor < itemRows.count, case .item(let index, _) = rows[itemRows[cursor]] else { return nil }
        return index
    }

    /// The filter in force as the status line shows it (`/1999`), nil when none: every screen
    /// names it beside its counts, so that a list narrowed by it never looks like the whole.
    public var filterLabel: String? { filter.text.isEmpty ? nil : "/" + filter.text }

    /// Items shown (after the filter) and items in all.
    public var shownCount: Int { itemRows.count }
    public var totalCount: Int { texts.count }

    /// Handles a key; false when the key is not the list's (the screen's own keys).
    public mutating func handle(_ key: KeyPress) -> Bool {
        defer { reveal() }
        if isFiltering {
            switch Self.filterKeys.action(for: key) {
            case .keep?: isFiltering = false
            case .clear?:
                isFiltering = false
                filter.text = ""
                rebuild(keeping: selection)
            case .move(let motion)?: move(motion)
            case nil:
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

    /// Esc on a list: a filter kept in force is cleared (true); without one, nothing (false),
    /// and Esc on the first screen does not quit (tig and newsboat ignore it there).
    public mutating func clearFilter() -> Bool {
        guard !filter.text.isEmpty else { return false }
        filter.text = ""
        rebuild(keeping: selection)
        return true
    }

    public mutating func move(_ motion: Motion) {
        cursor = motion.apply(to: cursor, count: itemRows.count, page: max(pageSize / linesPerItem, 1))
        reveal()
    }

    /// Puts the cursor on item `index` when it is shown; false otherwise.
    @discardableResult
    public mutating func select(_ index: Int) -> Bool {
        guard let position = itemRows.firstIndex(where: { rows[$0] == .item(index, line: 0) }) else { return false }
        cursor = position
        reveal()
        return true
    }

    /// The items shown, in order (after the filter).
    public var shownItems: [Int] {
        itemRows.compactMap { if case .item(let index, _) = rows[$0] { index } else { nil } }
    }

    /// Selects the item on a screen row; false when that row holds none.
    public mutating func click(row: Int) -> Bool {
        let index = top + row - rect.row
        guard row >= rect.row, index < rows.count, case .item(let item, _) = rows[index] else { return false }
        return select(item)
    }

    /// Scrolls so the cursor's item is in view, with the header just above it when there is room.
    private mutating func reveal() {
        let height = pageSize
        let cursorRow = itemRows.isEmpty ? 0 : itemRows[cursor]
        if cursorRow < top { top = cursorRow }
        if cursorRow + linesPerItem > top + height { top = cursorRow + linesPerItem - height }
        if top > 0, top == cursorRow, top - 1 < rows.count, case .header = rows[top - 1], height > linesPerItem { top -= 1 }
        top = max(0, min(top, max(rows.count - height, 0)))
    }

    /// Draws the visible rows in the laid-out rect, the selected item highlighted; the filter
    /// line takes the last row while `/` is active. `item` draws an item's lines (its text's
    /// otherwise).
    public func draw(into canvas: inout Canvas, focused: Bool = true, item: ItemDrawer? = nil) {
        let showsFilter = isFiltering
        let height = pageSize
        let cursorRow = itemRows.isEmpty ? 0 : itemRows[cursor]
        for offset in 0..<height where top + offset < rows.count {
            let y = rect.row + offset
            switch rows[top + offset] {
            case .header(let title):
                canvas.put(title, row: y, column: rect.column, width: rect.columns, style: .heading)
            case .item(let index, let line):
                if let item {
                    item(&canvas, index, line, y, rect.column, rect.columns)
                } else {
                    canvas.put(" " + Self.line(line, of: texts[index]), row: y, column: rect.column, width: rect.columns)
                }
                let isCursor = !itemRows.isEmpty && top + offset - line == cursorRow
                if isCursor { canvas.highlight(row: y, column: rect.column, width: rect.columns, style: focused ? .selected : .bold) }
            }
        }
        if rows.isEmpty || itemRows.isEmpty {
            canvas.put(filter.text.isEmpty ? " (nothing to show)" : " (nothing matches)", row: rect.row, column: rect.column,
                       width: rect.columns, style: .dim)
        }
        if showsFilter { filter.draw(into: &canvas, row: rect.row + rect.rows - 1, column: rect.column, width: rect.columns, focused: true) }
    }

    /// Line `number` of an item's text (empty past its last line).
    static func line(_ number: Int, of text: String) -> String {
        guard number > 0 || text.contains("\n") else { return text }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return number < lines.count ? String(lines[number]) : ""
    }

    private mutating func fold() {
        texts = sections.flatMap(\.items)
        folded = nil
        narrowed = nil
    }

    /// Recomputes the rows for the filter, keeping the cursor on item `kept` if it still shows.
    private mutating func rebuild(keeping kept: Int?) {
        let needle = Array(filter.text.lowercased().utf8)
        let all: [Int]
        if needle.isEmpty {
            all = Array(texts.indices)
            narrowed = nil
        } else {
            if folded == nil { folded = FoldedTexts(searchText.map { text in texts.indices.map(text) } ?? texts) }
            let candidates = narrowed.flatMap { needle.starts(with: $0.needle) ? $0.items : nil }
            all = folded?.matching(needle, among: candidates) ?? []
            narrowed = (needle, all)
        }
        rows = []
        itemRows = []
        rows.reserveCapacity(all.count * linesPerItem + sections.count)
        itemRows.reserveCapacity(all.count)
        var index = 0
        var next = 0
        for section in sections {
            let end = index + section.items.count
            let first = next
            while next < all.count && all[next] < end { next += 1 }
            let matched = all[first..<next]
            index = end
            guard !matched.isEmpty else { continue }
            if let title = section.title { rows.append(.header(title)) }
            for item in matched {
                itemRows.append(rows.count)
                for line in 0..<linesPerItem { rows.append(.item(item, line: line)) }
            }
        }
        if let kept, let position = itemRows.firstIndex(where: { rows[$0] == .item(kept, line: 0) }) {
            cursor = position
        } else {
            cursor = min(cursor, max(itemRows.count - 1, 0))
        }
        reveal()
    }
}
