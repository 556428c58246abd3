import Foundation

/// A throwaway certificate authority and server certificates, made with openssl(1) in a
/// sandbox folder: one for 127.0.0.1 and localhost, one for another host name only.
struct TestCA {
    let folder: String
    var caCertificate: String { folder + "/ca.pem" }
    var serverCertificate: String { folder + "/server.pem" }
    var wrongHostCertificate: String { folder + "/wrong-host.pem" }
    var serverKey: String { folder + "/server.key" }
    /// For 127.0.0.1, signed by the CA, valid only on 1 January 2020.
    var expiredCertificate: String { folder + "/expired.pem" }

    init(sandbox: Sandbox) throws {
        folder = sandbox.root + "/ca"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder + "/ca.key", "-out", folder + "/ca.pem",
                          "-days", "2", "-subj", "/CN=Toolbox Test CA"])
        try Self.openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", folder + "/server.key", "-out", folder + "/server.csr",
                          "-subj", "/CN=localhost"])
        for (name, names) in [("server", "DNS:localhost,IP:127.0.0.1"), ("wrong-host", "DNS:other.example")] {
            let extensions = folder + "/\(name).cnf"
            try "subjectAltName=\(names)\nbasicConstraints=CA:FALSE\n".write(toFile: extensions, atomically: true, encoding: .utf8)
            try Self.openssl(["x509", "-req", "-in", folder + "/server.csr", "-CA", folder + "/ca.pem", "-CAkey", folder + "/ca.key",
                              "-CAcreateserial", "-out", folder + "/\(name).pem", "-days", "2", "-extfile", extensions])
        }
    }

    /// `openssl ca`, the one way OpenSSL 3.0 sets both dates of a certificate.
    func makeExpired() throws {
        try """
            [ ca ]
            default_ca = dated
            [ dated ]
            database = \(folder)/index.txt
            new_certs_dir = \(folder)
            serial = \(folder)/serial
            default_md = sha256
            policy = any
            copy_extensions = copy
            unique_subject = no
            [ any ]
            commonName = supplied
            """.write(toFile: folder + "/dated.cnf", atomically: true, encoding: .utf8)
        try "".write(toFile: folder + "/index.txt", atomically: true, encoding: .utf8)
        try "01\n".write(toFile: folder + "/serial", atomically: true, encoding: .utf8)
        try Self.openssl(["ca", "-batch", "-config", folder + "/dated.cnf", "-cert", caCertificate, "-keyfile", folder + "/ca.key",
                          "-in", folder + "/server.csr", "-out", expiredCertificate, "-startdate", "20200101000000Z",
                          "-enddate", "20200102000000Z", "-extfile", folder + "/server.cnf"])
    }

    static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HarnessError("openssl \(arguments.first ?? "") failed") }
    }
}

/// tinyproxy(8) on a free port for one test, logging every request it relays; stopped by
/// `withTinyproxy` whatever happens.
final class Tinyproxy: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns this object.
    let process = Process()
    let url: String
    let logPath: String

    /// With `credentials` (user, password), tinyproxy asks for them (407) before relaying.
    init(sandbox: Sandbox, credentials: (String, String)? = nil) throws {
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
            """.write(toFile: config, atomically: true, encoding: .utf8)
        FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tinyproxy")
        process.arguments = ["-d", "-c", config]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
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
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw HarnessError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
