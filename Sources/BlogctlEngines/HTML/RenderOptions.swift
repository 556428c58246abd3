/// What `read` writes: text laid out for a terminal, Markdown, or the body's HTML as it came.
public enum RenderFormat: String, CaseIterable, Sendable {
    case text, markdown, html
}

/// How a body is laid out.
public struct RenderOptions: Sendable {
    public var format: RenderFormat
    /// Columns; text is reflowed to fit. Markdown is not wrapped.
    public var width: Int
    /// Bold and underline as terminal attributes: only on a terminal.
    public var styled: Bool
    /// Resolves relative link targets against the post's URL.
    public var links: LinkResolver

    public init(format: RenderFormat = .text, width: Int = 80, styled: Bool = false,
                links: LinkResolver = LinkResolver(document: "http://127.0.0.1:8106/")) {
        self.format = format
        self.width = max(width, 20)
        self.styled = styled && format == .text
        self.links = links
    }
}
