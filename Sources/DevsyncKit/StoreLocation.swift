import ToolboxKit

/// Where the store lives: `--store PATH`, else `$DEVSYNC_STORE`, else
/// `$XDG_DATA_HOME/devsync/devsync.sqlite`.
public enum StoreLocation {
    public static func resolve(flag: String?, environment: [String: String] = Environment.current) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let value = environment["DEVSYNC_STORE"], !value.isEmpty { return value }
        return defaultFolder(environment) + "/devsync.sqlite"
    }

    /// `resolve`, with the default folder made (0700) and checked as blogctl's cache is: a
    /// symlinked, foreign or world-writable `$XDG_DATA_HOME/devsync` is refused, not used. A
    /// path the user names (`--store`, `$DEVSYNC_STORE`) is theirs to place.
    public static func prepared(flag: String?, environment: [String: String] = Environment.current) throws(ToolError) -> String {
        let path = resolve(flag: flag, environment: environment)
        if path == defaultFolder(environment) + "/devsync.sqlite" {
            try LocalFile.privateDirectory(defaultFolder(environment))
        }
        return path
    }

    static func defaultFolder(_ environment: [String: String]) -> String {
        Paths(environment: environment).data(.devsync)
    }
}
