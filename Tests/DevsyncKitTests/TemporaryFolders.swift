import Glibc

/// Temporary folders for the store tests, all under one folder for this test process,
/// removed when the process exits, so that a run leaves nothing in /tmp.
enum TemporaryFolders {
    static let root: String = {
        var template = Array("/tmp/devsync-tests-XXXXXX".utf8CString)
        let root = String(cString: mkdtemp(&template)!)
        atexit { _ = TemporaryFolders.removeTree(TemporaryFolders.root) }
        return root
    }()

    /// A new empty folder whose name starts with `prefix`.
    static func make(_ prefix: String) -> String {
        var template = Array((root + "/" + prefix + "-XXXXXX").utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    /// `rm -rf`, without following symlinks.
    @discardableResult
    static func removeTree(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        if info.st_mode & S_IFMT == S_IFDIR, let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                if name != "." && name != ".." { removeTree(path + "/" + name) }
            }
            closedir(directory)
            return rmdir(path) == 0
        }
        return unlink(path) == 0
    }
}
