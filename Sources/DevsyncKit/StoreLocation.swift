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
    /// path the user names (`--store`, `$DEVSYNC_STORE`) passes the same trust rule
    /// (`FileTrust`): the store and its folders the user's or root's and writable by no one
    /// else (so not `/tmp` itself), a symlink's target checked the same way.
    public static func prepared(flag: String?, environment: [String: String] = Environment.current) throws(ToolError) -> String {
        let path = resolve(flag: flag, environment: environment)
        if path == defaultFolder(environment) + "/devsync.sqlite" {
            try LocalFile.privateDirectory(defaultFolder(environment))
        }
        if let reason = problem(path, environment: environment) { throw .io(path: path, reason: reason + "; refusing to use it") }
        // SQLite opens a path: the canonical one the walk checked, with no link left in it to
        // be swapped, and only folders no one else can change.
        return try FileTrust.trustedLocation(path, home: environment["HOME"])
    }

    /// Why the store at `path` (or the folder it would be made in) cannot be trusted, or nil.
    public static func problem(_ path: String, environment: [String: String] = Environment.current) -> String? {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        return FileTrust.problem(path, limit: Int.max, home: environment["HOME"])
            ?? FileTrust.folderProblem(folder, home: environment["HOME"])
    }

    static func defaultFolder(_ environment: [String: String]) -> String {
        Paths(environment: environment).data(.devsync)
    }
}
