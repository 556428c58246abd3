#if canImport(Glibc)
import Glibc
#endif
import NIOSSL

/// The certificates an HTTPS connection trusts, chosen as curl and OpenSSL-based tools do:
/// `--cacert FILE` alone when given; else `SSL_CERT_FILE` and `SSL_CERT_DIR` when set; else
/// the system bundle, wherever this system keeps it (Debian, Fedora, openSUSE, Alpine).
public enum TrustStore: Sendable, Equatable {
    case bundle(String)
    case directory(String)
    case bundleAndDirectory(String, String)
    /// The first system bundle found, or NIOSSL's own default when there is none.
    case system(String?)

    /// The files it names, one per line: what tells one store from another (a key, made
    /// without reflection).
    var files: String {
        switch self {
        case .bundle(let file): return "bundle " + file
        case .directory(let folder): return "directory " + folder
        case .bundleAndDirectory(let file, let folder): return "bundle " + file + "\ndirectory " + folder
        case .system(let file): return "system " + (file ?? "")
        }
    }

    public static let systemBundles = [
        "/etc/ssl/certs/ca-certificates.crt",                 // Debian, Ubuntu, Alpine with ca-certificates
        "/etc/pki/tls/certs/ca-bundle.crt",                   // Fedora, RHEL, CentOS
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // Fedora, RHEL (extracted)
        "/etc/ssl/ca-bundle.pem",                             // openSUSE
        "/etc/ssl/cert.pem",                                  // Alpine, macOS, the BSDs
    ]

    public static func resolve(cacert: String?, environment: [String: String] = Environment.current) -> TrustStore {
        if let cacert, !cacert.isEmpty { return .bundle(cacert) }
        let file = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        let directory = environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        switch (file, directory) {
        case let (file?, directory?): return .bundleAndDirectory(file, directory)
        case let (file?, nil): return .bundle(file)
        case let (nil, directory?): return .directory(directory)
        case (nil, nil): return .system(systemBundles.first { access($0, R_OK) == 0 })
        }
    }

    /// NIOSSL's trust roots for this choice; a file or folder that holds no certificate is a
    /// usage error, said before any connection is tried.
    public func trustRoots() throws(ToolError) -> NIOSSLTrustRoots {
        switch self {
        case .bundle(let path): return .certificates(try Self.certificates(inFile: path))
        case .directory(let path): return .certificates(try Self.certificates(inDirectory: path))
        case .bundleAndDirectory(let file, let directory):
            return .certificates(try Self.certificates(inFile: file) + Self.certificates(inDirectory: directory))
        case .system(let path?): return .file(path)
        case .system(nil): return .default
        }
    }

    static func certificates(inFile path: String) throws(ToolError) -> [NIOSSLCertificate] {
        guard access(path, R_OK) == 0 else { throw .usage("cannot read the CA bundle \(path): \(String(cString: strerror(errno)))") }
        guard let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty else {
            throw .usage("\(path) holds no PEM certificate")
        }
        return certificates
    }

    /// Every PEM certificate in the folder's files (OpenSSL's hashed names or any other).
    static func certificates(inDirectory path: String) throws(ToolError) -> [NIOSSLCertificate] {
        guard let folder = opendir(path) else { throw .usage("cannot read the CA folder \(path): \(String(cString: strerror(errno)))") }
        defer { closedir(folder) }
        var certificates: [NIOSSLCertificate] = []
        while let item = readdir(folder) {
            let name = DirectoryEntry.name(item)
            guard !name.hasPrefix(".") else { continue }
            var info = stat()
            let file = path + "/" + name
            guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size < 1 << 22 else { continue }
            certificates += (try? NIOSSLCertificate.fromPEMFile(file)) ?? []
        }
        guard !certificates.isEmpty else { throw .usage("the CA folder \(path) holds no PEM certificate") }
        return certificates
    }
}
