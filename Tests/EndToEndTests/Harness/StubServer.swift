import Foundation

/// A one-trick HTTP server on a free loopback port: every request gets the same raw bytes.
/// For answers mockd never gives (HTML error pages, broken framing).
final class StubServer: @unchecked Sendable {
    // @unchecked: `listener` is set once in init and only closed by stop(); the accept
    // thread only reads it.
    let url: String
    private let listener: Int32

    init(response: String) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 16) == 0 else { throw HarnessError("stub server: cannot listen") }
        _ = fcntl(listener, F_SETFD, FD_CLOEXEC)
        url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        let bytes = Array(response.utf8)
        let fd = listener
        Foundation.Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                var buffer = [UInt8](repeating: 0, count: 8192)
                var request: [UInt8] = []
                while !request.ends(with: [13, 10, 13, 10]) {
                    let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { break }
                    request += buffer[0..<count]
                }
                _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
