import ToolboxKit

extension Tool {
    /// The name `blogctl` goes by: its messages, `$BLOGCTL_SERVER`, its folders.
    /// Its server may be a feed, or a page naming one: a URL with a query is kept.
    public static let blogctl = Tool("blogctl", serverMayBeADocument: true)
}
