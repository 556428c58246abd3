#if canImport(Glibc)
import Glibc
#endif

/// What `readdir` gives, read safely.
public enum DirectoryEntry {
    /// The name of `entry`, read up to its NUL. Never the whole `d_name` array: an entry is
    /// only as long as its name (`d_reclen`), and one at the end of readdir's buffer, copied
    /// whole, reads past it (a test's folder removal crashed so).
    public static func name(_ entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }
}
