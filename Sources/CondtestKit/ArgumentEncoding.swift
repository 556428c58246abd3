import ToolboxKit

/// Swift repairs invalid UTF-8 in `CommandLine.arguments` silently (to U+FFFD), which would
/// make `eval` compare text the user never typed. This checks the raw bytes instead.
public enum ArgumentEncoding {
    /// Throws `badData` naming the first command-line argument that is not valid UTF-8.
    public static func validateCommandLine() throws(ToolError) {
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            let length = strlenOf(raw)
            let bytes = UnsafeRawPointer(raw).bindMemory(to: UInt8.self, capacity: length)
            if String(validating: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self) == nil {
                throw .badData("command-line argument \(index) is not valid UTF-8")
            }
        }
    }

    private static func strlenOf(_ pointer: UnsafeMutablePointer<CChar>) -> Int {
        var length = 0
        while pointer[length] != 0 { length += 1 }
        return length
    }
}
