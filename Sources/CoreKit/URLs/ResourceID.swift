/// Ids are opaque strings: the servers' (`_id: "unique id"`) may hold any character, and an id
/// typed on the command line is taken as it is. Only what cannot be represented at all is
/// refused; everything else is percent-encoded as one URL path segment, and mapped to a file
/// name that cannot leave its folder nor collide with another id's.
public enum ResourceID {
    /// Bytes of UTF-8; beyond this an id is not an id but a flood.
    public static let maxLength = 4096

    /// Refuses an empty id, one holding NUL, or one longer than `maxLength` bytes.
    public static func validate(_ id: String, kind: String = "id") throws(ToolError) -> String {
        if let why = problem(id) { throw .usage("invalid \(kind) \(Terminal.quote(id)): \(why)") }
        return id
    }

    /// The one id rule of the three tools, for an id typed or sent by a server: what makes
    /// it unrepresentable (empty, a NUL, which every C string and file name cuts, or longer
    /// than `maxLength` bytes), or nil. Invalid UTF-8 and lone surrogates never reach here:
    /// arguments are refused by `ArgumentLimits.invalidEncoding`, JSON by its decoder.
    public static func problem(_ id: String) -> String? {
        if id.isEmpty { return "it is empty" }
        if id.utf8.contains(0) { return "it holds a NUL byte" }
        if id.utf8.count > maxLength { return "it is longer than \(maxLength) bytes" }
        return nil
    }

    /// `id` as one path segment (RFC 3986): everything but unreserved characters
    /// percent-encoded, and `.` or `..` written so that no URL parser removes them as dot segments.
    public static func pathSegment(_ id: String) -> String {
        if id == "." || id == ".." { return String(repeating: "%2E", count: id.count) }
        return PercentEncoding.encode(id) { byte in isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~") }
    }

    /// `id` as the stem of a file name: lower-case letters, digits, `-` and `_` as they are,
    /// `.` except first, every other byte (upper-case letters included) as `%XX` with upper-case
    /// hex digits. One id, one stem, and no two stems that differ only in case, so ids `a` and
    /// `A` stay two files on a case-insensitive file system (exFAT, SMB, casefolded ext4). No
    /// stem is `.`, `..`, hidden or holds a `/`. A stem that would be longer than 200 bytes is
    /// `~` and a 64-bit hash of the id instead (whoever reads the file checks the id it records).
    public static func fileStem(_ id: String) -> String {
        stem(id, keepsUpperCase: false)
    }

    /// Whether `stem` is exactly what `fileStem` gives for some id, or what it gave before
    /// 0.3 (upper-case letters as they were), so that files of an older cache are still ours.
    public static func isFileStem(_ stem: Substring) -> Bool {
        if stem.utf8.first == UInt8(ascii: "~") {
            return stem.count == 17 && stem.dropFirst().utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }
        guard let id = PercentEncoding.decode(stem), !id.isEmpty else { return false }
        return fileStem(id) == stem || Self.stem(id, keepsUpperCase: true) == stem
    }

    private static func stem(_ id: String, keepsUpperCase: Bool) -> String {
        var first = true
        let stem = PercentEncoding.encode(id) { byte in
            defer { first = false }
            return (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || (keepsUpperCase && (0x41...0x5A).contains(byte))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || (byte == UInt8(ascii: ".") && !first)
        }
        guard stem.utf8.count > 200 else { return stem }
        return "~" + FNV1a.hash(id.utf8).hex
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
