import Foundation
import Testing

/// An installed mockd finds the data `make install` puts beside it (PREFIX/share/toolbox/data),
/// from any folder; --data and $MOCKD_DATA come first; the error names every place tried.
@Suite struct MockdDataEndToEndTests {
    /// A prefix laid out as `make install` lays it out: the one binary in libexec/toolbox,
    /// bin/mockd a link to it, and, if asked, share/toolbox/data. `copied`: bin/mockd is a
    /// copy of the binary instead, as a user who copies it there has it.
    func prefix(_ sandbox: Sandbox, withData: Bool, copied: Bool = false) throws -> String {
        let prefix = sandbox.root + "/prefix"
        let files = FileManager.default
        try files.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        let binary = Binaries.path("toolbox")
        if copied {
            try files.copyItem(atPath: binary, toPath: prefix + "/bin/mockd")
        } else {
            try files.createDirectory(atPath: prefix + "/libexec/toolbox", withIntermediateDirectories: true)
            try files.copyItem(atPath: binary, toPath: prefix + "/libexec/toolbox/toolbox")
            try files.createSymbolicLink(atPath: prefix + "/bin/mockd", withDestinationPath: "../libexec/toolbox/toolbox")
        }
        if withData {
            try files.createDirectory(atPath: prefix + "/share/toolbox", withIntermediateDirectories: true)
            try files.copyItem(atPath: Binaries.dataDirectory, toPath: prefix + "/share/toolbox/data")
        }
        return prefix
    }

    /// Runs the installed mockd from `/` until its first line, then stops it.
    func firstLine(_ mockd: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (String, Int32, String) {
        func launch() throws -> (Process, Pipe, Pipe) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: mockd)
            process.arguments = ["--port", "0", "--quiet"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: "/")
            process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { _, new in new }
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            try process.run()
            return (process, out, err)
        }
        // The copy just made may still be open for writing in a child another test forked
        // before it execs (ETXTBSY, "Text file busy"): started again once that child has.
        var launched: (Process, Pipe, Pipe)?
        for attempt in 1...500 where launched == nil {
            do {
                launched = try launch()
            } catch let error as NSError where attempt < 500 && (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY) {
                usleep(2_000)
            }
        }
        guard let (process, out, err) = launched else { throw HarnessError("mockd did not start") }
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (String(decoding: line, as: UTF8.self), process.terminationStatus, stderr)
    }

    @Test(arguments: [false, true]) func theInstalledDataIsFoundFromAnyFolder(copied: Bool) throws {
        let sandbox = try Sandbox()
        let mockd = try prefix(sandbox, withData: true, copied: copied) + "/bin/mockd"
        let (line, _, _) = try firstLine(mockd, [])
        #expect(line.hasPrefix("mockd: listening on http://127.0.0.1:"))
        // --data and $MOCKD_DATA come first, and a wrong one is an error, not a fallback.
        let (_, status, stderr) = try firstLine(mockd, [], environment: ["MOCKD_DATA": "/nonexistent"])
        #expect(status == 74 && stderr == "mockd: /nonexistent: no such data folder (from $MOCKD_DATA)\n")
        let (_, flagStatus, _) = try firstLine(mockd, ["--data", "/nonexistent"])
        #expect(flagStatus == 74)
    }

    @Test func withoutDataTheErrorNamesEveryPlace() throws {
        let sandbox = try Sandbox()
        let prefix = try prefix(sandbox, withData: false)
        let (line, status, stderr) = try firstLine(prefix + "/bin/mockd", [])
        #expect(line.isEmpty && status == 74)
        #expect(stderr == "mockd: data: no data folder: looked in data, \(prefix)/share/toolbox/data and $MOCKD_DATA (unset); use --data DIR\n")
    }
}
