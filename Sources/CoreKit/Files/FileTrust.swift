#if canImport(Glibc)
import Glibc
#endif

/// The one trust rule for the files the tools keep and read back (config.yml, the devsync
/// store, ~/.netrc), as ssh's StrictModes: the file is owned by the user or root and not
/// writable by group or others, and so is every folder above it up to the home (or up to `/`
/// for a file outside the home); a symlink is followed and its target checked the same way;
/// a FIFO, a device or a file over its stated size is refused. One exception, for the
/// folders above the file's own: a root-owned folder with the sticky bit (`/tmp`), where no
/// other user can rename or remove what is ours. Each refusal is one reason in words.
/// The path is walked once, a component at a time (`PathWalk`): every check is on what was
/// opened, and what is read is what was checked.
public enum FileTrust {
    /// Why `path` cannot be trusted, or nil when it can. A missing file is nil (nothing to
    /// trust); `limit` is the largest size accepted. Walked once (`PathWalk`).
    public static func problem(_ path: String, limit: Int, home: String? = Environment.current["HOME"]) -> String? {
        switch PathWalk(home: home).walk(path, folder: false) {
        case .missing, .folder: return nil
        case .refused(let reason): return reason
        case .file(let fd, let info, _):
            close(fd)
            return Int(info.st_size) > limit ? "larger than \(LocalFile.describe(limit))" : nil
        }
    }

    /// The bytes of a file that passes the rule, read from the descriptor the walk checked:
    /// never a second resolution of the path. A missing file is an `io` error.
    public static func read(_ path: String, limit: Int, home: String? = Environment.current["HOME"]) throws(ToolError) -> [UInt8] {
        switch PathWalk(home: home).walk(path, folder: false) {
        case .missing: throw .io(path: path, reason: String(cString: strerror(ENOENT)))
        case .folder: throw .io(path: path, reason: "a folder, not a regular file; not used")
        case .refused(let reason): throw .io(path: path, reason: reason + "; not used")
        case .file(let fd, let info, _):
            defer { close(fd) }
            if Int(info.st_size) > limit { throw .io(path: path, reason: "larger than \(LocalFile.describe(limit)); not used") }
            return try LocalFile.read(descriptor: fd, path: path, limit: limit)
        }
    }

    /// The canonical path of a file the rule trusts, or of where it would be made in a
    /// trusted folder: no link in it and no folder another user could change, so a library
    /// that takes a path (SQLite) opens what was checked.
    public static func trustedLocation(_ path: String, home: String? = Environment.current["HOME"]) throws(ToolError) -> String {
        let walker = PathWalk(home: home)
        switch walker.walk(path, folder: false) {
        case .refused(let reason): throw .io(path: path, reason: reason + "; refusing to use it")
        case .file(let fd, _, let canonical):
            close(fd)
            return canonical
        case .folder: throw .io(path: path, reason: "a folder, not a regular file; refusing to use it")
        case .missing:
            return try canonicalFolder(of: path, walker: walker, original: path)
        }
    }

    /// The canonical form of the folder `path` will be made in, plus its name: the deepest
    /// folder that exists walked and checked, the missing ones after it (made 0700 later).
    private static func canonicalFolder(of path: String, walker: PathWalk, original: String) throws(ToolError) -> String {
        let name = PathWalk.components(path).last ?? ""
        guard !name.isEmpty, name != ".", name != ".." else { throw .io(path: original, reason: "not a file name") }
        let folder = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        switch walker.walk(folder, folder: true) {
        case .folder(let canonical): return (canonical == "/" ? "" : canonical) + "/" + name
        case .refused(let reason): throw .io(path: original, reason: reason + "; refusing to use it")
        case .missing: return try canonicalFolder(of: folder, walker: walker, original: original) + "/" + name
        case .file: throw .io(path: original, reason: "\(folder): not a folder")
        }
    }

    /// A folder a tool will create files in (the store's): the same rule, walked, the folder
    /// itself included (sticky or not), a link followed and its target checked. Nil when it
    /// does not exist yet (it will be made 0700).
    public static func folderProblem(_ folder: String, home: String? = Environment.current["HOME"]) -> String? {
        switch PathWalk(home: home).walk(folder, folder: true) {
        case .missing, .folder: return nil
        case .refused(let reason): return reason
        case .file(let fd, _, _):
            close(fd)
            return "\(folder) is not a folder"
        }
    }

    /// Whether anything (a file, a symlink, even a dangling one) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func fileProblem(_ info: stat, limit: Int) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO: return "a FIFO, not a regular file"
        case S_IFCHR, S_IFBLK: return "a device, not a regular file"
        case S_IFDIR: return "a folder, not a regular file"
        default: return "not a regular file"
        }
        if let reason = ownerProblem(info, what: "it", stickyAllowed: false) { return reason }
        if Int(info.st_size) > limit { return "larger than \(LocalFile.describe(limit))" }
        return nil
    }

    static func ownerProblem(_ info: stat, what: String, stickyAllowed: Bool) -> String? {
        if info.st_uid != geteuid() && info.st_uid != 0 {
            return "\(what) is owned by another user (uid \(info.st_uid))"
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 {
            if stickyAllowed && info.st_uid == 0 && mode & S_ISVTX != 0 { return nil }
            return "\(what) is writable by \(mode & 0o002 != 0 ? "everyone" : "its group") (mode \(String(mode, radix: 8)))"
        }
        return nil
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func currentDirectory() -> String? {
        guard let cwd = getcwd(nil, 0) else { return nil }
        defer { free(cwd) }
        return String(cString: cwd)
    }
}
