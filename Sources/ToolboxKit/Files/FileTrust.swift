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
public enum FileTrust {
    /// Why `path` cannot be trusted, or nil when it can. A missing file is nil (nothing to
    /// trust); `limit` is the largest size accepted.
    public static func problem(_ path: String, limit: Int, home: String? = Environment.current["HOME"]) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? nil : String(cString: strerror(errno)) }
        var checked = [path]
        if info.st_mode & S_IFMT == S_IFLNK {
            guard let target = realPath(path) else { return "a symlink to nothing (\(String(cString: strerror(errno))))" }
            guard stat(target, &info) == 0 else { return String(cString: strerror(errno)) }
            checked.append(target)
        }
        if let reason = fileProblem(info, limit: limit) { return reason }
        // The folders of the link and of its target: either could let another user swap the file.
        for file in checked {
            if let reason = folderProblem(above: file, home: home) { return reason }
        }
        return nil
    }

    /// The bytes of a file that passes the rule, read without blocking on a FIFO and as the
    /// regular file the rule saw.
    public static func read(_ path: String, limit: Int, home: String? = Environment.current["HOME"]) throws(ToolError) -> [UInt8] {
        if let reason = problem(path, limit: limit, home: home) { throw .io(path: path, reason: reason + "; not used") }
        return try LocalFile.read(realPath(path) ?? path, limit: limit, regularOnly: true)
    }

    /// A folder a tool will create files in (the store's): the same rule, the folder itself
    /// included, sticky or not. Nil when it does not exist yet (it will be made 0700).
    public static func folderProblem(_ folder: String, home: String? = Environment.current["HOME"]) -> String? {
        var info = stat()
        guard lstat(folder, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFLNK { return "\(folder) is a symlink" }
        if let reason = ownerProblem(info, what: folder, stickyAllowed: false) { return reason }
        return folderProblem(above: folder + "/.", home: home)
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

    /// Each folder above `path`, from its own up to the home (inclusive) or `/`.
    static func folderProblem(above path: String, home: String?) -> String? {
        let absolute = path.hasPrefix("/") ? path : (currentDirectory() ?? "") + "/" + path
        var components = absolute.split(separator: "/").map(String.init)
        let stop = home.flatMap(realPath)
        var first = true
        while !components.isEmpty {
            components.removeLast()
            let folder = "/" + components.joined(separator: "/")
            var info = stat()
            guard stat(folder, &info) == 0 else { return "\(folder): \(String(cString: strerror(errno)))" }
            if let reason = ownerProblem(info, what: folder, stickyAllowed: !first) { return reason }
            first = false
            if let stop, realPath(folder) == stop { return nil }
        }
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
