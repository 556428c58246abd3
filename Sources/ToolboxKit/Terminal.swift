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
    /// newline, DEL, and the C1 controls U+0080–U+009F (U+009B is a one-byte CSI).
    /// Every string that came from a server passes through here before it is printed.
    public static func sanitize(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isControl(scalar) { scalars.append(scalar) }
        return String(scalars)
    }

    /// As `sanitize`, and also turns tabs and newlines into spaces, for one TSV field or one table cell.
    public static func sanitizeField(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isControl(scalar) {
            scalars.append(scalar == "\t" || scalar == "\n" ? " " : scalar)
        }
        return String(scalars)
    }

    @inline(__always)
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 { return value != 0x09 && value != 0x0A }
        return value >= 0x7F && value <= 0x9F
    }
}
