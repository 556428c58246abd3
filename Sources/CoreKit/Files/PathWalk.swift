#if canImport(Glibc)
import Glibc
#endif

/// Linux's O_PATH (a descriptor that names a file without opening it for reading: a FIFO is
/// not waited on, a folder needs no read permission), which Glibc's module leaves out (it
/// sits behind _GNU_SOURCE); the same value on every Linux architecture Swift runs on.
private let O_PATH: Int32 = 0o10000000

/// A path opened once, a component at a time, as OpenSSH's `safe_path` walks it: each folder
/// is opened relative to the one before (`openat`, `O_NOFOLLOW`) and checked by `fstat` on
/// what was opened; a symlink is read in the folder that holds it (already checked) and its
/// target walked the same way, from `/` when absolute. Nothing is resolved twice, so no one
/// can swap a component between a check and a use: a file the walk hands back is the file
/// that was checked, and a folder's canonical path has no link and no folder that another
/// user could change. `FileTrust` states the rule; this applies it.
struct PathWalk {
    /// What the walk found at the end of the path.
    enum Outcome {
        /// Nothing there (a component is missing): `at` is the canonical path so far.
        case missing(at: String)
        /// Refused: the reason in words.
        case refused(String)
        /// A regular file, open for reading (the caller closes `fd`), its status and its
        /// canonical path.
        case file(fd: Int32, info: stat, path: String)
        /// A folder (when a folder was asked for), and its canonical path.
        case folder(path: String)
    }

    /// Links followed before the walk gives up, as the kernel's own limit.
    static let maximumLinks = 40

    let home: String?

    /// Walks `path` to a regular file (`folder` false) or a folder (`folder` true), checking
    /// every folder on the way with `FileTrust.ownerProblem`: the file's own folder (or the
    /// folder asked for) may not be sticky-shared; folders above may be root's sticky ones
    /// (`/tmp`); strict ancestors of the home are not checked, as ssh does not.
    func walk(_ path: String, folder wantFolder: Bool) -> Outcome {
        guard !path.isEmpty else { return .refused("an empty path") }
        let absolute = path.utf8.first == UInt8(ascii: "/") ? path : (FileTrust.currentDirectory() ?? "") + "/" + path
        var pending = Array(Self.components(absolute).reversed())
        let root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return .refused("/: " + String(cString: strerror(errno))) }
        // The folders opened so far, `/` first: each with its name.
        var folders: [(fd: Int32, name: String)] = [(root, "")]
        defer { for entry in folders { close(entry.fd) } }
        var canonical: String { folders.count == 1 ? "/" : folders.dropFirst().map { "/" + $0.name }.joined() }
        let homePath = home.flatMap(FileTrust.realPath)
        if let reason = check(root, "/", sticky: true, homePath: homePath) { return .refused(reason) }
        var links = 0
        // Whether the path's last component was a link (then nothing at its end is a mistake).
        var finalIsLink = false
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                if folders.count > 1 { close(folders.removeLast().fd) }
                continue
            }
            let parent = folders[folders.count - 1].fd
            let here = canonical == "/" ? "/" + name : canonical + "/" + name
            let fd = openat(parent, name, O_PATH | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else {
                let reason = String(cString: strerror(errno))
                guard errno == ENOENT else { return .refused(here + ": " + reason) }
                // A link that leads nowhere is a mistake to name, not a file to ignore.
                return finalIsLink ? .refused("a symlink to nothing (\(here): \(reason))") : .missing(at: here)
            }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                close(fd)
                return .refused(here + ": " + String(cString: strerror(errno)))
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                close(fd)
                links += 1
                guard links <= Self.maximumLinks else { return .refused("\(here): too many levels of symbolic links") }
                guard let target = Self.readLink(parent, name), !target.isEmpty else { return .refused("\(here): an unreadable symlink") }
                if !pending.contains(where: { $0 != "." }) { finalIsLink = true }
                if target.utf8.first == UInt8(ascii: "/") {
                    while folders.count > 1 { close(folders.removeLast().fd) }
                }
                pending += Self.components(target).reversed()
            case S_IFDIR:
                folders.append((fd, name))
                let last = !pending.contains { $0 != "." }
                // The folder asked for is checked whatever it holds (even the home's parent).
                let asked = last && wantFolder
                if let reason = check(fd, here, sticky: !asked, homePath: asked ? nil : homePath) { return .refused(reason) }
            default:
                close(fd)
                guard !pending.contains(where: { $0 != "." }) else { return .refused("\(here): not a folder") }
                if wantFolder { return .refused("\(here): not a folder") }
                // The file's own folder: no one else may rename or replace what is in it.
                if let reason = check(parent, canonical, sticky: false, homePath: nil) { return .refused(reason) }
                if let reason = FileTrust.fileProblem(info, limit: .max) { return .refused(reason) }
                // Opened for reading from the same folder, without following and without
                // blocking; checked again on what was opened.
                let readable = openat(parent, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                guard readable >= 0 else { return .refused(here + ": " + String(cString: strerror(errno))) }
                var opened = stat()
                guard fstat(readable, &opened) == 0, opened.st_ino == info.st_ino, opened.st_dev == info.st_dev else {
                    close(readable)
                    return .refused("\(here): changed while it was opened")
                }
                return .file(fd: readable, info: opened, path: here)
            }
        }
        guard wantFolder else { return .refused("\(canonical): a folder, not a regular file") }
        return .folder(path: canonical)
    }

    /// The owner rule on an open folder; nil for a strict ancestor of the home.
    private func check(_ fd: Int32, _ path: String, sticky: Bool, homePath: String?) -> String? {
        if let homePath, homePath != path, homePath.utf8.starts(with: (path == "/" ? "/" : path + "/").utf8) { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return path + ": " + String(cString: strerror(errno)) }
        return FileTrust.ownerProblem(info, what: path, stickyAllowed: sticky)
    }

    static func components(_ path: String) -> [String] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    }

    static func readLink(_ folder: Int32, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(folder, name, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
