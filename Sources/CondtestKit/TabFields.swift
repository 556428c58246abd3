/// Tab-separated argument fields of one line, lent in place as `Text` (for `eval --batch`
/// and the TSV cases of `condtest test`).
enum TabFields {
    /// Puts the first `wanted` fields of `line` into `texts[0..<wanted]`. Returns how many
    /// fields it found (at most `wanted`) and whether more followed. A line holds at least
    /// one field, the empty one; `wanted == 0` takes none.
    @inline(__always)
    static func split(_ line: Text, into texts: UnsafeMutableBufferPointer<Text>, wanted: Int) -> (found: Int, more: Bool) {
        guard wanted > 0 else { return (0, !line.isEmpty) }
        var field = 0
        var fieldStart = 0
        for index in 0..<line.count where line[index] == 0x09 {
            if field == wanted - 1 {
                texts[field] = Text(rebasing: line[fieldStart..<index])
                return (wanted, true)
            }
            texts[field] = Text(rebasing: line[fieldStart..<index])
            field += 1
            fieldStart = index + 1
        }
        texts[field] = Text(rebasing: line[fieldStart..<line.count])
        return (field + 1, false)
    }

    /// Arguments must be valid UTF-8 without NUL: the operators compare Unicode text.
    /// Returns the problem, or nil.
    @inline(__always)
    static func problem(in line: Text) -> String? {
        var ascii = true
        for byte in line {
            if byte == 0 { return "NUL byte in the arguments" }
            if byte >= 0x80 { ascii = false }
        }
        if !ascii, String(validating: line, as: UTF8.self) == nil { return "not valid UTF-8" }
        return nil
    }
}
