import ToolboxKit

extension Tool {
    /// The name `passcode` goes by: its messages, `$PASSCODE_SERVER`, its folders.
    public static let passcode = Tool("passcode")
}
