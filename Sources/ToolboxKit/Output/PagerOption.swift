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
    private var isUnwanted: Bool { noPager || Pager.isDisabled || !Terminal.isTTY(1) }

    /// Prints what `produce` writes, piece by piece. When no pager can be wanted (piped,
    /// `--no-pager`) each piece goes out as it is made, so a long list is never held whole,
    /// and a reader that leaves early ends the output, not `produce`'s work (which may have
    /// more to finish, as `list` storing bodies); for a terminal it is held and printed as `print` prints it.
    public func print(pieces produce: ((String) -> Void) async throws -> Void) async throws {
        var held = ""
        var readerLeft = false
        let streams = isUnwanted
        try await produce { piece in
            if streams { StandardOutput.print(piece, readerLeft: &readerLeft) } else { held.append(piece) }
        }
        if !streams { print(held) }
    }

    /// Prints `text`, through the pager when it is wanted.
    public func print(_ text: String) {
        if !noPager, Pager.wanted(lineCount: text.utf8.count { $0 == 0x0A }), Pager.show(text) { return }
        StandardOutput.print(text)
    }
}
