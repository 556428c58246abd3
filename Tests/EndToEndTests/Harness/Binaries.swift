import Foundation

/// Where the built binaries and the repository's data are.
enum Binaries {
    /// `$TOOLBOX_BIN_DIR` (set by the Makefile), else the folder of the test runner, which
    /// SwiftPM builds beside the executables.
    static let directory: String = {
        if let dir = ProcessInfo.processInfo.environment["TOOLBOX_BIN_DIR"], !dir.isEmpty { return dir }
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (runner as NSString).deletingLastPathComponent
    }()

    /// A built binary by name, or an absolute path as it is.
    static func path(_ name: String) -> String { name.hasPrefix("/") ? name : directory + "/" + name }

    /// The repository root, from this file's path.
    static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let dataDirectory = repository + "/data"
}
