/// The toolbox's version, shared by every binary's `--version`.
public enum ToolboxVersion {
    public static let current = "0.1.0"

    /// What `--version` prints: the tool's name and the version, as `git version` names itself.
    public static func line(for tool: String) -> String { tool + " " + current }
}
