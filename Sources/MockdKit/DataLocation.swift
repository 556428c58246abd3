#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ToolboxKit

/// Where mockd finds its data: `--data DIR`, else `$MOCKD_DATA`, else `data` in the current
/// folder (a checkout of the toolbox), else the copy `make install` puts beside the binary
/// (`PREFIX/share/toolbox/data` for `PREFIX/bin/mockd`). A folder counts only when it holds
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
        if let executable, let slash = executable.lastIndex(of: "/") {
            let bin = String(executable[..<slash])
            let prefix = bin.lastIndex(of: "/").map { String(bin[..<$0]) } ?? "."
            candidates.append((prefix.isEmpty ? "" : prefix) + "/share/toolbox/data")
        }
        for candidate in candidates {
            if holdsAPIData(candidate) { return candidate }
            tried.append(candidate)
        }
        throw .io(path: "data", reason: "no data folder: looked in \(tried.joined(separator: ", ")) and $MOCKD_DATA (unset); use --data DIR")
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
