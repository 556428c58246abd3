import CoreKit

/// Why a screen could not start.
public enum ScreenError: Error, Sendable, Equatable {
    /// Standard input or output is not a terminal.
    case notATerminal
    /// The terminal could not be set up (an unknown TERM, no pipe).
    case cannotStart(String)

    /// As every tool reports it: not a terminal is a usage error (64), as DESIGN.md says.
    public var toolError: ToolError {
        switch self {
        case .notATerminal: .usage("the screen needs a terminal (standard input and output are not one)")
        case .cannotStart(let reason): .usage("cannot start the screen: " + reason)
        }
    }
}
