import Foundation
import TestSupport

/// A temporary home with its own XDG folders, so no test touches a real home.
/// Removed when the sandbox goes away.
final class Sandbox: @unchecked Sendable {
    // @unchecked: every stored property is a `let` of immutable strings; nothing is mutated.
    let root: String

    init() throws {
        root = TemporaryFolders.make("toolbox-e2e")
        for sub in ["home", "cache", "data", "config"] {
            try FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
        }
    }

    deinit { TemporaryFolders.removeTree(root) }

    var cacheHome: String { root + "/cache" }
    var dataHome: String { root + "/data" }
    var home: String { root + "/home" }

    /// The environment a tool runs with: nothing from the real one but PATH.
    var environment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home,
            "XDG_CACHE_HOME": cacheHome,
            "XDG_DATA_HOME": dataHome,
            "XDG_CONFIG_HOME": root + "/config",
            "LANG": "C.UTF-8",
            "TZ": "UTC",
        ]
    }

    func write(_ name: String, _ contents: String) throws -> String {
        let path = root + "/" + name
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
