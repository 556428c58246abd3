import CToolboxVersion

/// The toolbox's version, shared by every binary's `--version`: packaging/deb/changelog's, as
/// scripts/version.sh reads it, written into the build; the one place.
public enum ToolboxVersion {
    public static let current: String = TOOLBOX_VERSION

    /// What `--version` prints: the tool's name and the version, as `git version` names itself.
    public static func line(for tool: String) -> String { tool + " " + current }
}
