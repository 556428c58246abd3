#if canImport(Glibc)
import Glibc
#endif
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// How a failed request is said: every error AsyncHTTPClient, NIO or NIOSSL can give becomes
/// one `ToolError` naming the URL and what to do, and `isTransient` says which are worth
/// another try (connection errors, timeouts and 5xx; not 4xx, bad data, usage errors or
/// Ctrl-C).
public enum NetworkFailure {
    /// Which failures a request is tried again after.
    public enum RetryScope: Sendable {
        /// Connection errors, timeouts and 5xx (`isTransient`).
        case transient
        /// Only a connection that could not be made or was cut, as curl's `--retry-connrefused`
        /// counts them: a feed refresh asks a failing feed once, and says so.
        case connection
    }

    static func isRetryable(_ error: ToolError, scope: RetryScope) -> Bool {
        switch scope {
        case .transient: return isTransient(error)
        case .connection:
            switch error {
            case .unreachable, .proxyUnreachable: return true
            default: return false
            }
        }
    }

    public static func isTransient(_ error: ToolError) -> Bool {
        switch error {
        case .unreachable, .timedOut, .proxyUnreachable: return true
        case .httpStatus(_, let status, _): return status >= 500
        default: return false
        }
    }

    /// Maps whatever AsyncHTTPClient, NIO or NIOSSL threw to a `ToolError` naming the URL,
    /// by the error's type and case, never by the words of its description, and in words a
    /// user reads (no Swift type names).
    /// Through a proxy, a connection that fails is the proxy's: it is named, not the server.
    public static func describe(_ error: any Error, url: String, timeout: Double, proxy: ProxyChoice? = nil) -> ToolError {
        let described = describeDirect(error, url: url, timeout: timeout, proxy: proxy?.description ?? "")
        if let proxy, case .unreachable(_, let reason) = described {
            return .proxyUnreachable(proxy: proxy.description, reason: reason)
        }
        return described
    }

    private static func describeDirect(_ error: any Error, url: String, timeout: Double, proxy: String) -> ToolError {
        switch error {
        case let error as ToolError: return error
        case let error as APIClient.FailedHop: return describeDirect(error.underlying, url: error.url, timeout: timeout, proxy: proxy)
        case is CancellationError: return .interrupted
        case let error as HTTPClientError: return describe(error, url: url, timeout: timeout, proxy: proxy)
        case let error as NIOConnectionError:
            if error.dnsAError != nil && error.dnsAAAAError != nil && error.connectionErrors.isEmpty {
                return .unreachable(url: url, reason: "host not found")
            }
            if let first = error.connectionErrors.first { return describeDirect(first.error, url: url, timeout: timeout, proxy: proxy) }
            return .unreachable(url: url, reason: "host not found")
        case let error as IOError: return .unreachable(url: url, reason: describe(errno: error.errnoCode))
        case is ChannelError:
            if case .connectTimeout = error as? ChannelError { return .timedOut(url: url, seconds: timeout) }
            return .unreachable(url: url, reason: "the connection failed")
        case is HTTPParserError:
            return .protocolViolation(url: url, detail: "the reply is not valid HTTP")
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return .certificate(url: url, reason: "it is not valid for this host name")
        case let error as NIOSSLError: return describe(error, url: url)
        case is SocketAddressError: return .unreachable(url: url, reason: "host not found")
        default: return .unreachable(url: url, reason: "the connection failed")
        }
    }

    static func describe(_ error: HTTPClientError, url: String, timeout: Double, proxy: String) -> ToolError {
        // HTTPClientError is a struct of static values: matched by equality, case by case.
        let timeouts: [HTTPClientError] = [.connectTimeout, .readTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout,
                                           .writeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout, .tlsHandshakeTimeout]
        if timeouts.contains(error) { return .timedOut(url: url, seconds: timeout) }
        if error == .remoteConnectionClosed { return .unreachable(url: url, reason: "connection closed by the server") }
        if [.invalidURL, .emptyHost, .emptyScheme].contains(error) { return .usage("invalid URL \(url)") }
        if error == .cancelled { return .interrupted }
        if [.redirectCycleDetected, .redirectLimitReached].contains(error) {
            return .protocolViolation(url: url, detail: "the server redirects in a loop")
        }
        if error == .bodyLengthMismatch { return .protocolViolation(url: url, detail: "the body is not as long as the server said") }
        if error == .invalidProxyResponse { return .proxyRefused(proxy: proxy, status: nil, url: url) }
        if error == .proxyAuthenticationRequired { return .proxyRefused(proxy: proxy, status: 407, url: url) }
        return .protocolViolation(url: url, detail: "the server broke the HTTP protocol")
    }

    static func describe(_ error: NIOSSLError, url: String) -> ToolError {
        if case .handshakeFailed(let inner) = error {
            let text = "\(inner)"
            // BoringSSL's own reason codes, the stable part of its error strings.
            if text.contains("CERTIFICATE_VERIFY_FAILED") {
                return .certificate(url: url, reason: CertificateDiagnosis.unknown)
            }
            if text.contains("WRONG_VERSION_NUMBER") {
                return .protocolViolation(url: url, detail: "the server does not speak TLS on this port; try http://")
            }
        }
        return .unreachable(url: url, reason: "the TLS handshake failed")
    }

    static func describe(errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED: return "connection refused"
        case ECONNRESET: return "connection reset"
        case ENETUNREACH, EHOSTUNREACH: return "network unreachable"
        case ETIMEDOUT: return "connection timed out"
        default: return String(cString: strerror(code))
        }
    }
}

extension APIClient {
    /// `NetworkFailure.describe(_:url:timeout:proxy:)` with this client's timeout and proxy.
    public func describe(_ error: any Error, url: String) -> ToolError {
        NetworkFailure.describe(error, url: url, timeout: timeout, proxy: proxy)
    }
}
