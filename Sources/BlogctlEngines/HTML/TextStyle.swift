import CoreKit

/// Terminal attributes of a run of text; only drawn when the output is a terminal.
package struct TextStyle: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    static let bold = TextStyle(rawValue: 1)
    static let underline = TextStyle(rawValue: 2)

    /// The SGR sequence that turns these attributes on, after a reset.
    var sequence: [UInt8] {
        var parameters = [0]
        if contains(.bold) { parameters.append(1) }
        if contains(.underline) { parameters.append(4) }
        return Array(SGR.select(parameters).utf8)
    }
    static let reset: [UInt8] = Array(SGR.reset.utf8)
}
