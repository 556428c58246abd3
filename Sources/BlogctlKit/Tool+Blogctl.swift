import ToolboxKit

extension Tool {
    /// The name `blogctl` goes by: its messages, `$BLOGCTL_SERVER`, its folders.
    public static let blogctl = Tool("blogctl")
}
