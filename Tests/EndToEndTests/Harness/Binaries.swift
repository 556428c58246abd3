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

    /// A built tool by name, or an absolute path as it is. A tool is a link to the one
    /// binary, `toolbox` (scripts/tool-links.sh, which `make build` runs; made here once for a
    /// bare `swift build`).
    static func path(_ name: String) -> String {
        if name.hasPrefix("/") { return name }
        _ = linked
        return directory + "/" + name
    }

    private static let linked: Void = {
        let links = Process()
        links.executableURL = URL(fileURLWithPath: "/bin/sh")
        links.arguments = [repository + "/scripts/tool-links.sh", directory]
        try? links.run()
        links.waitUntilExit()
    }()

    /// The repository root, from this file's path.
    static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let dataDirectory = repository + "/data"
}
