import Foundation
import TestSupport

/// mockd on a free port for one test. Started with `--port 0`; the URL comes from its first
/// stdout line, which the harness waits for (no sleeps). Always stopped by `withMockd`.
final class MockdProcess: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns this object, one call at a time.
    let process: Process
    let url: String
    let stderrPath: String
    /// The request log as it arrives, when started with `tailLog`.
    let tail: LogTail?

    init(arguments: [String], sandbox: Sandbox, tailLog: Bool = false) async throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.path("mockd"))
        process.arguments = ["--port", "0", "--data", Binaries.dataDirectory] + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        stderrPath = sandbox.root + "/.mockd-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        if tailLog {
            let pipe = Pipe()
            process.standardError = pipe
            tail = LogTail(pipe.fileHandleForReading)
        } else {
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
            tail = nil
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Stopped by its owner; this only bounds a test that hangs.
        watch(process, limit: 900)

        let first = await Self.firstLine(stdout.fileHandleForReading)
        let prefix = "mockd: listening on "
        guard first.hasPrefix(prefix) else {
            process.terminate()
            process.waitUntilExit()
            let log = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            throw HarnessError("mockd did not start: first line \"\(first)\", stderr: \(log)")
        }
        url = String(first.dropFirst(prefix.count))
    }

    /// The first line `handle` gives, read on a thread of its own: a blocking read on one of
    /// the few cooperative threads (two on a 2-core machine) would stall every other async test
    /// for as long as a slow mockd takes to start (CI saw 20 minutes of it).
    static func firstLine(_ handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var line = Data()
                while !line.contains(0x0A) {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    line.append(chunk)
                }
                continuation.resume(returning: String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "")
            }
        }
    }

    /// The request log so far.
    var log: String { tail.map { $0.lines.joined(separator: "\n") } ?? (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

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
func withMockd<T>(_ arguments: [String] = [], sandbox: Sandbox, tailLog: Bool = false,
                  _ body: (MockdProcess) async throws -> T) async throws -> T {
    let mockd = try await MockdProcess(arguments: arguments, sandbox: sandbox, tailLog: tailLog)
    defer { mockd.stop() }
    return try await body(mockd)
}

/// Reads a process's stderr on a thread of its own, so the writer never blocks, and lets a
/// test wait for a line to arrive (an event, not a sleep).
final class LogTail: @unchecked Sendable {
    // @unchecked: `storage` is only touched under `condition`.
    private let condition = NSCondition()
    private var storage: [String] = []
    private var ended = false

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    condition.lock()
                    storage.append(line)
                    condition.broadcast()
                    condition.unlock()
                }
            }
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }
    }

    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return storage
    }

    /// Blocks until `count` lines satisfy `predicate` (or the log ends, or `limit` seconds
    /// pass, which only guards against a hang). Returns how many there were.
    @discardableResult
    func wait(for count: Int, limit: TimeInterval = 120, where predicate: (String) -> Bool) -> Int {
        let deadline = Date().addingTimeInterval(limit)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let matching = storage.filter(predicate).count
            if matching >= count || ended { return matching }
            if !condition.wait(until: deadline) { return matching }
        }
    }
}
