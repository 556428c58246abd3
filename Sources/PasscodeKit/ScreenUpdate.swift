import ToolboxKit

/// Redraws only what changed: given the lines on screen and the new ones, the bytes that
/// move the cursor to each changed line, write it and clear the rest of it.
public struct ScreenUpdate: Sendable {
    private var shown: [String] = []

    public init() {}

    /// Forgets what is on screen (after a resize or a clear), so the next frame is drawn whole.
    public mutating func invalidate() { shown = [] }

    public mutating func bytes(for lines: [String]) -> String {
        var output = ""
        for (index, line) in lines.enumerated() where index >= shown.count || shown[index] != line {
            output += SGR.moveTo(row: index + 1, column: 1) + line + SGR.clearLine
        }
        if lines.count < shown.count {
            for index in lines.count..<shown.count { output += SGR.moveTo(row: index + 1, column: 1) + SGR.clearLine }
        }
        shown = lines
        // Synchronized output (DEC mode 2026): terminals that know it show the frame at once.
        return output.isEmpty ? "" : SGR.synchronizedUpdate(output)
    }
}
