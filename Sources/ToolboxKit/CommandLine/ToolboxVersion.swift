/// The toolbox's version, shared by every binary's `--version`.
public enum ToolboxVersion {
    public static let current = "0.1.0"
}
