/// Validates an id from the command line before it goes into a URL path or a file name.
public enum ResourceID {
    public static let maxLength = 128

    /// Letters, digits, `.`, `_` and `-`; not `.` or `..`; 1 to 128 characters.
    public static func validate(_ id: String, kind: String = "id") throws(ToolError) -> String {
        let allowed = id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard !id.isEmpty, id.utf8.count <= maxLength, allowed, id != ".", id != ".." else {
            throw .usage("invalid \(kind) \"\(Terminal.sanitize(id))\": use letters, digits, '.', '_' and '-' (at most \(maxLength))")
        }
        return id
    }
}
