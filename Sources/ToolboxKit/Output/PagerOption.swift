import ArgumentParser

/// `--no-pager`, for every command whose output is a list: on a terminal a list taller than
/// the screen goes through `$PAGER` (`less` with `LESS=FRX` by default, so a short one is
/// simply printed), as git pages; `--no-pager`, an empty `PAGER` or `PAGER=cat` print it.
public struct PagerOption: ParsableArguments, Sendable {
    @Flag(name: .customLong("no-pager"), help: "Print the list even when it is taller than the screen.")
    public var noPager = false

    public init() {}

    /// Whether no pager can be wanted, however long the text: `--no-pager` (or the global
    /// one), or stdout not a terminal. The text can then go out as it is made.
    public var isUnwanted: Bool { noPager || Pager.isDisabled || !Terminal.isTTY(1) }

    /// Prints `text`, through the pager when it is wanted.
    public func print(_ text: String) {
        if !noPager, Pager.wanted(lineCount: text.utf8.count { $0 == 0x0A }), Pager.show(text) { return }
        StandardOutput.print(text)
    }
}
