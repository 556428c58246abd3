/// How a cell is drawn: attributes that work on every terminal (bold, reverse, dim,
/// underline) and a foreground colour, which `NO_COLOR` and colourless terminals drop.
public struct Style: Sendable, Hashable {
    public enum Color: Int, Sendable, Hashable, CaseIterable {
        case none = 0, red, green, yellow, blue, magenta, cyan
    }

    public var bold = false
    public var reverse = false
    public var dim = false
    public var underline = false
    public var color = Color.none

    public init(bold: Bool = false, reverse: Bool = false, dim: Bool = false, underline: Bool = false, color: Color = .none) {
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
        self.color = color
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let reverse = Style(reverse: true)
    public static let dim = Style(dim: true)
    /// The selected row of a list, the focused field or button.
    public static let selected = Style(reverse: true)
    /// Section headers and titles.
    public static let heading = Style(bold: true)

    /// The colour a truth value is shown in everywhere: true green, false red, unknown dim.
    public static func result(_ value: Bool?) -> Style {
        switch value {
        case true?: Style(bold: true, color: .green)
        case false?: Style(bold: true, color: .red)
        case nil: Style(dim: true)
        }
    }

    /// This style with `other`'s attributes added (a selected row keeps its cells' colours).
    public func merged(with other: Style) -> Style {
        Style(bold: bold || other.bold, reverse: reverse || other.reverse, dim: dim || other.dim,
              underline: underline || other.underline, color: other.color == .none ? color : other.color)
    }
}
