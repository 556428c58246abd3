import Foundation
import TestSupport

/// What a user sees of one run: stdout, stderr and the exit status.
struct ToolRun: Sendable {
    let stdout: String
    let stderr: String
    let status: Int32
    /// True when the process ended by a signal rather than exit().
    let signaled: Bool

    var lines: [Substring] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
}

/// Runs one binary with arguments, stdin and environment, like a shell would. Output goes to
/// files, so a chatty process can never block on a full pipe. A hung process is killed
/// after `limit` seconds and the run fails (a guard against hangs, not a timing assertion).
/// `executable` runs another program (time(1)) in the same way.
func runTool(_ name: String, _ arguments: [String], stdin: String? = nil, sandbox: Sandbox,
             environment extra: [String: String] = [:], limit: TimeInterval = 120, executable: String? = nil) throws -> ToolRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable ?? Binaries.path(name))
    process.arguments = arguments
    process.environment = sandbox.environment.merging(extra) { _, new in new }
    process.currentDirectoryURL = URL(fileURLWithPath: sandbox.root)

    let id = UUID().uuidString
    let outPath = sandbox.root + "/.out-" + id
    let errPath = sandbox.root + "/.err-" + id
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardOutput = out
    process.standardError = err
    if let stdin {
        let inPath = sandbox.root + "/.in-" + id
        try stdin.write(toFile: inPath, atomically: false, encoding: .utf8)
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
    } else {
        process.standardInput = FileHandle.nullDevice
    }
    try process.run()
    watch(process, limit: limit)
    process.waitUntilExit()
    try out.close()
    try err.close()
    let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    return ToolRun(stdout: stdout, stderr: stderr, status: process.terminationStatus,
                   signaled: process.terminationReason == .uncaughtSignal)
}

/// Starts a binary in the background as `runTool` runs it, its output discarded and watched
/// for a hang, for a test that signals it or runs several at once; the caller waits for it.
func startTool(_ name: String, _ arguments: [String], sandbox: Sandbox, environment extra: [String: String] = [:],
               limit: TimeInterval = 120) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Binaries.path(name))
    process.arguments = arguments
    process.environment = sandbox.environment.merging(extra) { _, new in new }
    process.currentDirectoryURL = URL(fileURLWithPath: sandbox.root)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    watch(process, limit: limit)
    return process
}

/// `runTool` under GNU time(1): the run and the process's peak resident memory in KiB.
func runMeasured(_ name: String, _ arguments: [String], stdin: String? = nil, sandbox: Sandbox,
                 environment: [String: String] = [:], limit: TimeInterval = 300) throws -> (kib: Int, run: ToolRun) {
    let report = sandbox.root + "/.time-" + UUID().uuidString
    let run = try runTool(name, ["-f", "%M", "-o", report, Binaries.path(name)] + arguments, stdin: stdin, sandbox: sandbox,
                          environment: environment, limit: limit, executable: "/usr/bin/time")
    let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
    return (Int(text.split(separator: "\n").last ?? "") ?? -1, run)
}
