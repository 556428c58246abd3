/// Display width in terminal columns: East Asian wide and fullwidth characters take two,
/// combining marks none.
public enum TextWidth {
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

    /// The columns `text` takes: each grapheme cluster (what a terminal draws in one place)
    /// counts once, so an emoji sequence joined by ZWJ, a flag, a keycap or a character with
    /// VS16 takes two columns, not the sum of its scalars.
    public static func of(_ text: String) -> Int {
        // The common case, ASCII: a column a byte.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The columns one grapheme cluster takes: 0 (marks alone), 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 { return width(first) }
        var widest = 0
        var regionalIndicators = 0
        for scalar in scalars {
            // VS16 asks for the emoji form; ZWJ joins emoji into one picture; U+20E3 makes a keycap.
            if scalar == "\u{FE0F}" || scalar == "\u{200D}" || scalar == "\u{20E3}" { return 2 }
            if (0x1F1E6...0x1F1FF).contains(scalar.value) { regionalIndicators += 1 }
            widest = max(widest, width(scalar))
        }
        if regionalIndicators >= 2 { return 2 }
        return min(widest, 2)
    }

    public static func width(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
            || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value) || (0x20000...0x3FFFD).contains(value) {
            return 2
        }
        return 1
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
