import Foundation
import TestSupport

/// tinyproxy(8) on a free port for one test, logging every request it relays; stopped by
/// `withTinyproxy` whatever happens.
final class Tinyproxy: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns this object.
    let process = Process()
    let url: String
    let logPath: String

    /// With `credentials` (user, password), tinyproxy asks for them (407) before relaying.
    /// `connectPorts`: the only ports CONNECT may reach, as most proxies are set up (squid's
    /// default rules, `ConnectPort 443`); nil allows every port.
    init(sandbox: Sandbox, credentials: (String, String)? = nil, connectPorts: [Int]? = nil) throws {
        let port = try Self.freePort()
        url = "http://127.0.0.1:\(port)"
        logPath = sandbox.root + "/tinyproxy.log"
        let config = sandbox.root + "/tinyproxy.conf"
        try """
            Port \(port)
            Listen 127.0.0.1
            Timeout 60
            LogFile "\(logPath)"
            LogLevel Connect
            MaxClients 20
            Allow 127.0.0.1
            DisableViaHeader Yes
            \(credentials.map { "BasicAuth \($0.0) \($0.1)" } ?? "")
            \((connectPorts ?? []).map { "ConnectPort \($0)" }.joined(separator: "\n"))
            """.write(toFile: config, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tinyproxy")
        process.arguments = ["-d", "-c", config]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Stopped by its owner; this only bounds a test that hangs.
        watch(process, limit: 900)
        // Ready when it accepts a connection (polled, with a guard against a hang).
        let deadline = Date().addingTimeInterval(30)
        while !Self.accepts(port) {
            guard Date() < deadline, process.isRunning else { stop(); throw HarnessError("tinyproxy did not start") }
            usleep(20_000)
        }
    }

    /// The request lines tinyproxy logged (`CONNECT 127.0.0.1:PORT HTTP/1.1`, `GET http://…`).
    var requests: [String] {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in line.range(of: "): ").map { String(line[$0.upperBound...]) } }
            .filter { !$0.hasPrefix("127.0.0.1") }
    }

    /// SIGKILL: a process started from the test's threads inherits their blocked signals, and
    /// tinyproxy, unlike mockd, does not unblock SIGTERM.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        guard let port = bindLoopback(fd) else { throw HarnessError("no free port") }
        return port
    }
}
