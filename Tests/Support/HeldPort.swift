import Glibc

/// A port kept refusing connections: a socket bound to it on 127.0.0.1 that never listens.
/// A port merely closed could go to another test's server meanwhile, which would take the
/// connection a test expects refused; held, it cannot.
public final class HeldPort {
    /// The port held (0 if binding failed).
    public let port: Int
    private var fd: Int32

    /// Holds `port`, or a free port the system picks when 0 (nothing happens if another socket
    /// has it already).
    public init(_ port: Int = 0) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = bind(fd, $0, length) }
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// The port of a URL such as `http://127.0.0.1:8107`.
    public convenience init?(url: String) {
        guard let port = url.split(separator: ":").last.flatMap({ Int($0) }) else { return nil }
        self.init(port)
    }

    /// Lets the port go (a test that starts its server again on it).
    public func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    deinit { release() }
}
