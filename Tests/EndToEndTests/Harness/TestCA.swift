import Foundation
import TestSupport

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
        watch(process, limit: 60)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HarnessError("openssl \(arguments.first ?? "") failed") }
    }
}
