/// Process exit statuses, after sysexits(3). Every tool uses these and documents
/// the ones it can return in its man page's EXIT STATUS section.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// A negative answer where the tool has one (condtest: the condition is false).
    case negative = 1
    case usage = 64
    /// Bad data: a malformed condition, a change the server rejected.
    case dataError = 65
    /// No such id.
    case noInput = 66
    /// The server is unreachable or kept failing after the retries.
    case unavailable = 69
    /// A bug in the tool.
    case software = 70
    /// Local I/O failed: cache, store.
    case ioError = 74
    /// Try again later: changes are kept, the server could not take them now.
    case tempFail = 75
    /// The server broke the protocol: an unparseable or unexpected response.
    case protocolError = 76
    /// The server refused the credentials.
    case noPermission = 77
    /// The server's TLS certificate is not trusted with these settings (`--cacert`, `SSL_CERT_FILE`).
    case configuration = 78
    /// Stopped by Ctrl-C (128 + SIGINT).
    case interrupted = 130
}
