import Synchronization

/// Display width in terminal columns, as the C library (and so tmux and most terminals)
/// draws text: East Asian wide and fullwidth characters and most emoji take two, combining
/// marks and format characters none.
public enum TextWidth {
    /// Set by a screen whose locale cannot show more than ASCII (`LC_ALL=C`, a Latin-1
    /// locale): every other character is then drawn as one `?` in one cell, as newsboat
    /// draws it, and measured so, so that rows never shift (issue 47).
    static let asciiOnlyFlag = Atomic<Bool>(false)
    public static var asciiOnly: Bool {
        get { asciiOnlyFlag.load(ordering: .relaxed) }
        set { asciiOnlyFlag.store(newValue, ordering: .relaxed) }
    }

    /// Set by a screen drawn through ncurses, which places each scalar by wcwidth alone: an
    /// emoji after a ZWJ takes its own cells there (a family is 6 columns), where a terminal
    /// printed to directly joins it (2). Measured as ncurses will place it, a row's layout and
    /// what ncurses draws agree, so no cluster cuts the end of a row (issue 47).
    static let cursesCellsFlag = Atomic<Bool>(false)
    public static var cursesCells: Bool {
        get { cursesCellsFlag.load(ordering: .relaxed) }
        set { cursesCellsFlag.store(newValue, ordering: .relaxed) }
    }

    /// The width of `text` as drawn, not counting the SGR sequences in it (the keypad's
    /// styled lines).
    public static func visible(_ text: String) -> Int {
        var total = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                total += width(scalar)
            }
        }
        return total
    }

    /// The columns `text` takes, as a terminal draws it: each scalar as the C library's
    /// wcwidth says (`width`), and, as tmux does, an emoji joined to the one before it by a
    /// ZWJ drawn in the same cells (a family is 2 columns; `a`+ZWJ+`b` is 2; a skin tone
    /// after its emoji, which no terminal joins, 4).
    public static func of(_ text: String) -> Int {
        // The common case, ASCII: a column a byte.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return of(text, asciiOnly: asciiOnly)
    }

    /// The columns one grapheme cluster takes, by the same rule as `of`.
    public static func of(_ character: Character) -> Int { of(character, asciiOnly: asciiOnly) }

    /// `of`, under a locale that shows only ASCII when `asciiOnly`: one column a character.
    static func of(_ text: String, asciiOnly: Bool) -> Int {
        asciiOnly ? text.count : columns(text.unicodeScalars)
    }

    static func of(_ character: Character, asciiOnly: Bool) -> Int {
        asciiOnly ? 1 : columns(character.unicodeScalars)
    }

    /// What a screen draws for `text` under such a locale: each character that is not ASCII
    /// as one `?`.
    public static func shownInASCII(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        return String(text.map { $0.isASCII ? $0 : "?" })
    }

    /// The one rule of `of`: each scalar's width, an emoji after a ZWJ drawn in the cells of
    /// the one before it.
    static func columns(_ scalars: some Sequence<Unicode.Scalar>, joining: Bool = !cursesCells) -> Int {
        var total = 0
        var afterJoiner = false
        for scalar in scalars {
            let columns = width(scalar)
            if !(joining && afterJoiner && columns == 2) { total += columns }
            afterJoiner = scalar == "\u{200D}"
        }
        return total
    }

    /// The columns one scalar takes: glibc's wcwidth in a UTF-8 locale (`TextWidth+Table`,
    /// generated from it), one for what it does not know (drawn as a replacement).
    public static func width(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        if contains(doubleWidth, value) { return 2 }
        if contains(zeroWidth, value) { return 0 }
        return 1
    }

    /// Whether `value` lies in one of the sorted closed `ranges` (binary search).
    static func contains(_ ranges: [(UInt32, UInt32)], _ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].1 < value { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].0 <= value
    }

    public static func pad(_ text: String, to columns: Int) -> String {
        let missing = columns - of(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }

    /// Cuts `text` to at most `columns`, ending with `…` when something was cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = of(String(character))
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// Cuts `text` to at most `columns` by taking out its middle (`GEN-0…12-00`): for ids and
    /// URLs, whose start and end both tell them apart.
    public static func elideMiddle(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns >= 5 else { return truncate(text, to: columns) }
        let characters = Array(text)
        let tailRoom = (columns - 1) / 2
        var tail: [Character] = []
        var used = 0
        for character in characters.reversed() {
            let width = of(String(character))
            if used + width > tailRoom { break }
            tail.insert(character, at: 0)
            used += width
        }
        var head = ""
        var headUsed = 0
        for character in characters {
            let width = of(String(character))
            if headUsed + width > columns - 1 - used { break }
            head.append(character)
            headUsed += width
        }
        return head + "…" + String(tail)
    }
}
