import CoreKit

/// A button: `[ Test ]`, reversed while it has the focus. Enter or a click presses it.
public struct Button: Sendable, Equatable {
    public var label: String

    public init(_ label: String) { self.label = label }

    public var width: Int { TextWidth.of(label) + 4 }

    /// Draws the button and returns where it is, for clicks.
    @discardableResult
    public func draw(into canvas: inout Canvas, row: Int, column: Int, focused: Bool) -> Rect {
        canvas.put("[ " + label + " ]", row: row, column: column, style: focused ? .selected : .bold)
        return Rect(row: row, column: column, rows: 1, columns: width)
    }
}
