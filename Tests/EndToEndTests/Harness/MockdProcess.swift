import Foundation

/// mockd on a free port for one test. Started with `--port 0`; the URL comes from its first
/// stdout line, which the harness waits for (no sleeps). Always stopped by `withMockd`.
final class MockdProcess: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns this object, one call at a time.
    let process: Process
    let url: String
    let stderrPath: String

    init(arguments: [String], sandbox: Sandbox) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.path("mockd"))
        process.arguments = ["--port", "0", "--data", Binaries.dataDirectory] + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        stderrPath = sandbox.root + "/.mockd-" + UUID().uuidString
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()

        var line = Data()
        let reader = stdout.fileHandleForReading
        while !line.contains(0x0A) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let first = String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        let prefix = "mockd: listening on "
        guard first.hasPrefix(prefix) else {
            process.terminate()
            process.waitUntilExit()
            let log = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            throw HarnessError("mockd did not start: first line \"\(first)\", stderr: \(log)")
        }
        url = String(first.dropFirst(prefix.count))
    }

    /// The request log so far.
    var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// SIGTERM, then waits; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit { stop() }
}

/// Runs `body` with a mockd started with `arguments`, and stops it whatever happens.
func withMockd<T>(_ arguments: [String] = [], sandbox: Sandbox,
                  _ body: (MockdProcess) async throws -> T) async throws -> T {
    let mockd = try MockdProcess(arguments: arguments, sandbox: sandbox)
    defer { mockd.stop() }
    return try await body(mockd)
}
