import ToolboxKit

extension Tool {
    /// The name `devsync` goes by: its messages, `$DEVSYNC_SERVER`, its folders.
    public static let devsync = Tool("devsync")
}
