import ToolboxKit

/// A post's body as the reading pane shows it: laid out, in a file (`SpooledText`), so
/// that a post of any size costs the screen a window of lines, not the whole.
public struct PostText: Sendable, Equatable {
    public var metadata: PostMetadata
    public var text: SpooledText
    public var links: [String]
    /// Shown from the cache because the server could not be reached.
    public var offline: Bool

    public init(metadata: PostMetadata, text: SpooledText, links: [String], offline: Bool = false) {
        self.metadata = metadata
        self.text = text
        self.links = links
        self.offline = offline
    }

    /// Lines spooled to a temporary file (tests, small texts).
    public init(metadata: PostMetadata, lines: [String], links: [String], offline: Bool = false) throws(ToolError) {
        self.init(metadata: metadata, text: try SpooledText.of(lines), links: links, offline: offline)
    }

    public static func == (left: PostText, right: PostText) -> Bool {
        left.metadata == right.metadata && left.text === right.text && left.links == right.links && left.offline == right.offline
    }
}
