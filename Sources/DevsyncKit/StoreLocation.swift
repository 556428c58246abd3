import ToolboxKit

/// Where the store lives: `--store PATH`, else `$DEVSYNC_STORE`, else
/// `$XDG_DATA_HOME/devsync/devsync.sqlite`.
public enum StoreLocation {
    public static func resolve(flag: String?, environment: [String: String] = Environment.current) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let value = environment["DEVSYNC_STORE"], !value.isEmpty { return value }
        return Paths(environment: environment).data("devsync") + "/devsync.sqlite"
    }
}
