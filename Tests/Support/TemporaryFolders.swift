import Glibc

/// Temporary folders for every test target, all under one folder for this test process
/// (in `$TMPDIR`, else /tmp), removed when the process exits, so that a run leaves nothing
/// behind even when a test fails halfway.
public enum TemporaryFolders {
    public static let root: String = {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/toolbox-tests-XXXXXX").utf8CString)
        let root = String(cString: mkdtemp(&template)!)
        atexit { _ = TemporaryFolders.removeTree(TemporaryFolders.root) }
        return root
    }()

    /// A new empty folder whose name starts with `prefix`.
    public static func make(_ prefix: String) -> String {
        var template = Array((root + "/" + prefix + "-XXXXXX").utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    /// A path for a file in a new folder of its own: nothing there yet.
    public static func file(_ prefix: String, _ name: String) -> String {
        make(prefix) + "/" + name
    }

    /// `rm -rf`, without following symlinks.
    @discardableResult
    public static func removeTree(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        if info.st_mode & S_IFMT == S_IFDIR, let directory = opendir(path) {
            while let entry = readdir(directory) {
                // Up to its NUL, never the whole `d_name`: an entry is only as long as its name,
                // and one at the end of readdir's buffer, copied whole, reads past it (a crash).
                let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
                let name = String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
                if name != "." && name != ".." { removeTree(path + "/" + name) }
            }
            closedir(directory)
            return rmdir(path) == 0
        }
        return unlink(path) == 0
    }
}
