#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the tools need to know about the terminal, and the one place that cleans server text.
public enum Terminal {
    public static let standardOutput: Int32 = 1
    public static let standardError: Int32 = 2

    public static func isTTY(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Columns of the terminal on `fd`; `COLUMNS` when it is not a terminal; else 80.
    public static func width(_ fd: Int32 = standardOutput, environment: [String: String] = Environment.current) -> Int {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }

    /// Rows of the terminal on `fd`, or nil when it is not one.
    public static func height(_ fd: Int32 = standardOutput) -> Int? {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        return nil
    }

    /// Colour and other attributes only on a terminal and never with `NO_COLOR` set (no-color.org).
    public static func colorEnabled(_ fd: Int32 = standardOutput, environment: [String: String] = Environment.current) -> Bool {
        guard isTTY(fd) else { return false }
        if let value = environment["NO_COLOR"], !value.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// Removes what a terminal would obey rather than print: C0 controls except tab and
    /// newline, DEL, and the C1 controls U+0080–U+009F (U+009B is a one-byte CSI); and shows
    /// the invisible characters that change what a reader sees as `<U+202E>`: the bidi
    /// controls, the line and paragraph separators, the byte order mark and the tag characters.
    /// Every string that came from a server passes through here before it is printed.
    public static func sanitize(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsCleaning) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { append(scalar, to: &scalars, flattening: false) }
        return String(scalars)
    }

    /// As `sanitize`, and also turns tabs and newlines into spaces, for one TSV field, one
    /// table cell or one message line.
    public static func sanitizeField(_ text: String) -> String {
        // Printable ASCII alone (most fields) needs nothing: known from the bytes, with no
        // scalar decoded nor any property looked up.
        if text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }) == true { return text }
        guard text.unicodeScalars.contains(where: { needsCleaning($0) || $0 == "\t" || $0 == "\n" }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { append(scalar, to: &scalars, flattening: true) }
        return String(scalars)
    }

    /// A value from a server inside a message: cleaned as a field, cut to `limit` characters,
    /// in double quotes, so that a hostile value can neither drive the terminal nor flood it.
    public static func quote(_ value: String, limit: Int = 60) -> String {
        let clean = sanitizeField(value)
        return "\"" + (clean.count > limit ? String(clean.prefix(limit)) + "…" : clean) + "\""
    }

    private static func append(_ scalar: Unicode.Scalar, to scalars: inout String.UnicodeScalarView, flattening: Bool) {
        if let replacement = replacement(for: scalar) {
            scalars.append(contentsOf: replacement.unicodeScalars)
        } else if flattening && (scalar == "\t" || scalar == "\n") {
            scalars.append(" ")
        } else {
            scalars.append(scalar)
        }
    }

    /// The one rule, for code that cleans text scalar by scalar or byte by byte (the post
    /// renderer): nil when `scalar` prints as it is; "" when it is dropped (a control other
    /// than tab and newline); `<U+202E>` for a bidi control, shown rather than obeyed.
    @inline(__always)
    public static func replacement(for scalar: Unicode.Scalar) -> String? {
        if isControl(scalar) { return "" }
        if isShownAsCode(scalar) { return "<U+" + String(scalar.value, radix: 16, uppercase: true) + ">" }
        return nil
    }

    /// Whether `scalar` goes to a terminal as it is inside one word: neither cleaned by the
    /// one rule nor a tab or newline (a shell completion writes the others as `$'\xHH'`).
    @inline(__always)
    public static func isShown(_ scalar: Unicode.Scalar) -> Bool {
        !needsCleaning(scalar) && scalar != "\t" && scalar != "\n"
    }

    @inline(__always)
    static func needsCleaning(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) || isShownAsCode(scalar) }

    /// Invisible characters shown as their code point rather than passed on: the bidi
    /// controls; U+2028 and U+2029, which some terminals, editors and JavaScript take for a
    /// line end; the byte order mark U+FEFF (a zero-width no-break space inside a text); and
    /// the tag characters U+E0000–U+E007F, which can carry a whole hidden text.
    @inline(__always)
    public static func isShownAsCode(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2028, 0x2029, 0xFEFF, 0xE0000...0xE007F: return true
        default: return isBidiControl(scalar)
        }
    }

    @inline(__always)
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 { return value != 0x09 && value != 0x0A }
        return value >= 0x7F && value <= 0x9F
    }

    /// The explicit directional marks, embeddings, overrides and isolates (U+061C, U+200E/F,
    /// U+202A–E, U+2066–9): invisible, and able to make text read in another order (CVE-2021-42574).
    @inline(__always)
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
