/// How much of one block the renderer holds and shows, whatever the markup: a bound on memory
/// and on the page, the same for every kind of block (blogctl(1), read).
enum RenderBounds {
    /// A paragraph (or `pre` block) holding more than this is laid out as far as its lines
    /// are final.
    static let paragraphDrainBytes = 64 << 10
    /// The most text one block (paragraph, list item, quote, heading, table cell, `pre` line)
    /// shows: 1 MiB; past it, the rest of the block is dropped and `[…]` marks the cut.
    static let paragraphLimit = 1 << 20
    /// A Markdown paragraph drained early is soft-wrapped at about this many columns.
    static let markdownDrainWidth = 1000
}
