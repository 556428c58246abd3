#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// Where mockd finds its data: `--data DIR`, else `$MOCKD_DATA`, else `data` in the current
/// folder (a checkout of the toolbox), else the copy `make install` puts beside the binary
/// (`PREFIX/share/toolbox/data` for `PREFIX/libexec/toolbox/toolbox`, which `PREFIX/bin/mockd`
/// links to). A folder counts only when it holds
/// one of the APIs' data (conditions/, blog/ or devices/); the error names every place tried.
public enum DataLocation {
    public static func resolve(flag: String?, environment: [String: String] = Environment.current,
                               executable: String? = DataLocation.executablePath()) throws(ToolError) -> String {
        if let flag {
            guard isDirectory(flag) else { throw .io(path: flag, reason: "no such data folder") }
            return flag
        }
        var tried: [String] = []
        if let variable = environment["MOCKD_DATA"], !variable.isEmpty {
            guard isDirectory(variable) else { throw .io(path: variable, reason: "no such data folder (from $MOCKD_DATA)") }
            return variable
        }
        var candidates = ["data"]
        if let executable { candidates += installedData(beside: executable) }
        for candidate in candidates {
            if holdsAPIData(candidate) { return candidate }
            tried.append(candidate)
        }
        throw .io(path: "data", reason: "no data folder: looked in \(tried.joined(separator: ", ")) and $MOCKD_DATA (unset); use --data DIR")
    }

    /// Where `make install` and the package put the data for the binary at `executable`:
    /// `PREFIX/share/toolbox/data` for the one binary at `PREFIX/libexec/toolbox/toolbox`
    /// (what a tool's link resolves to), or for a binary at `PREFIX/bin/mockd`.
    static func installedData(beside executable: String) -> [String] {
        // By bytes: a folder whose name starts with a combining mark is still a folder.
        var folders = executable.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) }
        let levels = folders.suffix(2).elementsEqual(["libexec", "toolbox"]) ? 2 : 1
        guard folders.count > levels else { return [] }
        folders.removeLast(levels)
        let prefix = folders.joined(separator: "/")
        return [prefix + "/share/toolbox/data"]
    }

    static func isDirectory(_ path: String) -> Bool {
        var directory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory
    }

    static func holdsAPIData(_ path: String) -> Bool {
        ["conditions", "blog", "devices"].contains { isDirectory(path + "/" + $0) }
    }

    /// This binary's path, from /proc (nil elsewhere).
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
