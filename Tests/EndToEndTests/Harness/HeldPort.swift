import Foundation
import Glibc

/// A port kept refusing connections: a socket bound to it that never listens. After a test
/// stops its mockd to see "connection refused", the port could go to another test's server
/// meanwhile, which would take the connection; held, it cannot.
final class HeldPort {
    private var fd: Int32

    /// Holds `port` on 127.0.0.1 (nothing happens if another socket has it already).
    init(_ port: Int) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// The port of a URL such as `http://127.0.0.1:8107`.
    convenience init?(url: String) {
        guard let port = url.split(separator: ":").last.flatMap({ Int($0) }) else { return nil }
        self.init(port)
    }

    /// Lets the port go (a test that starts its server again on it).
    func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    deinit { release() }
}
