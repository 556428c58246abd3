#if canImport(Glibc)
import Glibc
#endif

/// Local files, read and written as an attacker sharing the machine cannot bend: reads with a
/// size bound (a FIFO or /dev/zero is an error, not unbounded memory), writes through a
/// temporary file that cannot be a planted symlink, folders that are private to the user.
public enum LocalFile {
    /// The bytes of `path`, or of stdin for `-`; `badData` past `limit` bytes. With
    /// `regularOnly`, the file is opened without following a symlink and without blocking
    /// (a FIFO would wait for a writer forever), and anything but a regular file is refused:
    /// for files in our own folders, which only we write.
    public static func read(_ path: String, limit: Int, regularOnly: Bool = false) throws(ToolError) -> [UInt8] {
        let flags = O_RDONLY | O_CLOEXEC | (regularOnly ? O_NOFOLLOW | O_NONBLOCK : 0)
        let fd = path == "-" ? 0 : open(path, flags)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        if regularOnly && !(fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG) {
            throw .io(path: path, reason: "not a regular file")
        }
        return try read(descriptor: fd, path: path, limit: limit)
    }

    /// The bytes of an open descriptor (named `path` in errors), at most `limit`.
    public static func read(descriptor fd: Int32, path: String, limit: Int) throws(ToolError) -> [UInt8] {
        var bytes: [UInt8] = []
        var info = stat()
        let known = fstat(fd, &info) == 0
        // A regular file's size is known: refused at once when too large, else one allocation.
        if known && info.st_mode & S_IFMT == S_IFREG {
            guard Int(info.st_size) <= limit else { throw .badData("\(path): larger than \(describe(limit))") }
            if info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size) + 1) }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .badData("\(path): larger than \(describe(limit))") }
            bytes += chunk[0..<count]
        }
    }

    static func describe(_ limit: Int) -> String {
        limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit) bytes"
    }
}

extension LocalFile {
    /// Writes `bytes` to `path` so that a reader sees the old file or the new one, never a
    /// part: a new temporary file in the same folder (`.NAME.tmp.PID.RANDOM`, created with
    /// O_EXCL|O_NOFOLLOW and mode 0600, so a file or symlink planted under that name makes
    /// the write fail instead of going elsewhere), fsync, the final mode, then rename.
    /// `durable: false` leaves out the fsync, for a copy that is checked when read (a cache
    /// entry: one lost to a crash is fetched again), written thousands at a time.
    /// `likelyNew` (with `durable: false`): the file is most likely not there yet, and is
    /// first written as `linkedNew` writes it.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644, durable: Bool = true,
                                       likelyNew: Bool = false) throws(ToolError) {
        if likelyNew, !durable, linkedNew(path, bytes, mode: mode) { return }
        let (fd, temporary) = try createTemporary(for: path)
        let failure = writeAll(fd, bytes)
        try commitTemporary(fd, temporary, to: path, mode: mode, failure: failure, durable: durable)
    }

    /// `writeAtomically` for a file that is not there yet, of those written thousands at a
    /// time (a feed's cache sidecars): an unnamed file (O_TMPFILE) in the folder, written and
    /// given its mode, then linked to `path`, where it appears whole, with no temporary name
    /// and no rename. False when it cannot be so (a file, or
    /// a symlink, already at `path`; a file system without O_TMPFILE; a failed write):
    /// nothing is left behind, and the caller writes the usual way.
    static func linkedNew(_ path: String, _ bytes: [UInt8], mode: mode_t) -> Bool {
        let folder = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? "."
        let fd = openUnnamed(in: folder.isEmpty ? "/" : folder)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard writeAll(fd, bytes) == 0, fchmod(fd, mode) == 0 else { return false }
        return link(unnamed: fd, to: path)
    }

    /// A file with no name (O_TMPFILE) in `folder`, open for writing, mode 0600: nothing is
    /// left behind by a crash before it is linked. -1 (errno set) where the file system has none.
    public static func openUnnamed(in folder: String) -> Int32 {
        open(folder, O_WRONLY | O_CLOEXEC | O_DIRECTORY | 0o20000000, 0o600)
    }

    /// Names the unnamed file `fd` `path`, where it appears whole. False (errno set) when the
    /// link fails, EEXIST when anything, a symlink too, holds the name: never followed.
    public static func link(unnamed fd: Int32, to path: String) -> Bool {
        linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0
    }

    /// A new temporary file beside `path` (`.NAME.tmp.PID.RANDOM`, O_EXCL|O_NOFOLLOW, 0600),
    /// open for writing: its descriptor and name. For a file written a piece at a time.
    public static func createTemporary(for path: String) throws(ToolError) -> (fd: Int32, path: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var fd: Int32 = -1
        var temporary = ""
        // A name taken by someone else is tried again with another random part, a few times.
        for _ in 0..<8 {
            temporary = folder + "/" + temporaryName(for: name)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        return (fd, temporary)
    }

    /// Ends a temporary file from `createTemporary`: its final mode, fsync, close, then rename
    /// onto `path`; on any failure (or `failure`, an errno the writer met) it is removed.
    public static func commitTemporary(_ fd: Int32, _ temporary: String, to path: String, mode: mode_t,
                                       failure: Int32 = 0, durable: Bool = true) throws(ToolError) {
        var failure = failure
        if failure == 0 && fchmod(fd, mode) != 0 { failure = errno }
        if failure == 0 && durable && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .io(path: path, reason: String(cString: strerror(failure)))
        }
    }

    /// Writes all of `bytes`, retrying short writes; 0 or the errno of the failure.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// `writeAll` of bytes in place (a String's own, with no copy to an array).
    public static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < raw.count {
            let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// `.NAME.tmp.`: a file starting so, followed by a process id, a dot and 16 hex digits,
    /// is a temporary file of ours; a leftover once that process is gone.
    public static func temporaryPrefix(for name: String) -> String { "." + name + ".tmp." }

    /// A new temporary path beside `path` (`.NAME.tmp.PID.RANDOM`), not created.
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return folder + "/" + temporaryName(for: name)
    }

    /// `.NAME.tmp.PID.RANDOM`
    static func temporaryName(for name: String) -> String {
        let random = UInt64.random(in: 0...UInt64.max)
        let hex = String(random, radix: 16)
        return temporaryPrefix(for: name) + String(getpid()) + "." + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// For a name in one of our folders: the name it is a temporary file of and the process
    /// that wrote it, when it has exactly the shape `temporaryName` gives; else nil.
    public static func parseTemporaryName(_ file: String) -> (name: String, pid: Int32)? {
        guard file.hasPrefix("."), let marker = file.ranges(of: ".tmp.").last else { return nil }
        let name = String(file[file.index(after: file.startIndex)..<marker.lowerBound])
        let rest = file[marker.upperBound...].split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, rest.count == 2, let pid = Int32(rest[0]), pid > 0, rest[1].count == 16,
              rest[1].utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return nil }
        return (name, pid)
    }

    /// Whether process `pid` is gone, so that its temporary files (or its claims on a store's
    /// changes) are leftovers. A process of another user is alive (EPERM): only "no such
    /// process" is dead.
    public static func isDead(_ pid: Int32) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

    /// Creates `path` and its parents, as `mkdir -p` does; folders made here get `mode`.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(ToolError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST {
                throw .io(path: current, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// A folder only this user can change, for a cache or a store: created 0700 (with its
    /// parents) when missing; refused when it is a symlink, not a folder, another user's, or
    /// writable by everyone (as ssh's StrictModes refuses such a home).
    public static func privateDirectory(_ path: String) throws(ToolError) {
        try makeDirectories(path, mode: 0o700)
        try checkPrivate(path)
    }

    /// The checks of `privateDirectory` on a folder that must already exist.
    public static func checkPrivate(_ path: String) throws(ToolError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        if info.st_mode & S_IFMT == S_IFLNK { throw .io(path: path, reason: "is a symlink; refusing to use it") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .io(path: path, reason: "not a folder") }
        guard info.st_uid == geteuid() else { throw .io(path: path, reason: "owned by another user; refusing to use it") }
        // One rule for every folder we keep, as for the store's: writable by no one else.
        if info.st_mode & (S_IWOTH | S_IWGRP) != 0 {
            let who = info.st_mode & S_IWOTH != 0 ? "everyone" : "its group"
            throw .io(path: path, reason: "writable by \(who) (mode \(String(info.st_mode & 0o7777, radix: 8))); run chmod 700 on it")
        }
    }

    /// Whether `path` is a regular file, not following a symlink.
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
