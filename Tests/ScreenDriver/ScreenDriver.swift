import ScreenKit

/// A `ScreenProgram` driven as `ScreenRunner` drives it, without a terminal: laid out for a
/// size, started, then keys, messages, ticks and resizes in, commands and frames out. Every
/// screen's tests use it, so they exercise the order the runner keeps (layout before start
/// and before every frame after a resize).
public struct ScreenDriver<Program: ScreenProgram> {
    public var program: Program
    public private(set) var rows: Int
    public private(set) var columns: Int
    /// The commands the last input asked for (the start's, at first).
    public private(set) var commands: [Program.Command] = []

    public init(_ program: Program, rows: Int = 24, columns: Int = 80, start: Bool = true) {
        self.program = program
        self.rows = rows
        self.columns = columns
        commands = self.program.resized(rows: rows, columns: columns)
        if start { commands += self.program.start() }
    }

    @discardableResult
    public mutating func press(_ keys: KeyPress...) -> [Program.Command] {
        commands = keys.flatMap { program.handle($0) }
        return commands
    }

    /// Each character of `text` as a key.
    @discardableResult
    public mutating func type(_ text: String) -> [Program.Command] {
        commands = text.flatMap { program.handle(.character($0)) }
        return commands
    }

    @discardableResult
    public mutating func receive(_ messages: Program.Message...) -> [Program.Command] {
        commands = messages.flatMap { program.receive($0) }
        return commands
    }

    @discardableResult
    public mutating func resize(rows: Int, columns: Int) -> [Program.Command] {
        self.rows = rows
        self.columns = columns
        commands = program.resized(rows: rows, columns: columns)
        return commands
    }

    public mutating func tick(_ count: Int = 1) {
        for _ in 0..<count { program.tick() }
    }

    /// The frame the runner would draw now.
    public var canvas: Canvas {
        var canvas = Canvas(rows: rows, columns: columns)
        program.draw(into: &canvas)
        return canvas
    }

    /// The frame's text, a line per row, trailing spaces dropped.
    public var screen: String { canvas.text }

    /// The frame as a golden file holds it: text and attributes.
    public var frame: String { GoldenFrame.render(canvas) }
}

extension ScreenDriver {
    /// The text of `program`'s frame on a terminal of a size: laid out for it (as the runner
    /// does when the size changes), then drawn.
    public static func screen(_ program: inout Program, rows: Int = 24, columns: Int = 80) -> String {
        _ = program.resized(rows: rows, columns: columns)
        var canvas = Canvas(rows: rows, columns: columns)
        program.draw(into: &canvas)
        return canvas.text
    }

    /// Each character of `text` as a key to `program`.
    public static func type(_ text: String, into program: inout Program) {
        for character in text { _ = program.handle(.character(character)) }
    }
}
