#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// Why a server's certificate failed verification, in words. BoringSSL's handshake error says
/// only "certificate verify failed"; a second handshake, which looks at the chain the server
/// presents and then gives up, tells an expired certificate from one no trusted authority
/// signed. Only after a failure, so a working connection never pays for it.
enum CertificateDiagnosis {
    static let unknown = "it is not trusted (an unknown or private issuer, self-signed, or expired)"

    static func reason(host: String, port: Int, now: time_t = time(nil)) async -> String {
        guard let chain = await presentedChain(host: host, port: port), let leaf = chain.first else { return unknown }
        if leaf.notValidAfter < now { return "it expired on \(day(leaf.notValidAfter))" }
        if leaf.notValidBefore > now { return "it is not valid before \(day(leaf.notValidBefore))" }
        return "no trusted authority signed it (a private or unknown issuer, or a self-signed certificate)"
    }

    /// The certificates the server presents, or nil when they cannot be had within 5 seconds.
    static func presentedChain(host: String, port: Int) async -> [NIOSSLCertificate]? {
        guard let context = try? NIOSSLContext(configuration: .makeClientConfiguration()) else { return nil }
        let group = MultiThreadedEventLoopGroup.singleton
        let promise = group.next().makePromise(of: [NIOSSLCertificate]?.self)
        let done = Mutex(false)
        let finish: @Sendable ([NIOSSLCertificate]?) -> Void = { chain in
            if done.withLock({ old in defer { old = true }; return !old }) { promise.succeed(chain) }
        }
        let timer = group.next().scheduleTask(in: .seconds(5)) { finish(nil) }
        let serverName = host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
        let bootstrap = ClientBootstrap(group: group).connectTimeout(.seconds(5)).channelInitializer { channel in
            // The initializer runs on the channel's event loop, where the handler (not
            // Sendable) is made and added synchronously.
            channel.eventLoop.makeCompletedFuture {
                let callback: NIOSSLCustomVerificationCallback = { chain, verdict in
                    finish(chain)
                    verdict.succeed(NIOSSLVerificationResult.failed)
                }
                let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName, customVerificationCallback: callback)
                try channel.pipeline.syncOperations.addHandler(handler)
            }
        }
        let channel = try? await bootstrap.connect(host: host, port: port).get()
        if channel == nil { finish(nil) }
        let chain: [NIOSSLCertificate]? = (try? await promise.futureResult.get()) ?? nil
        timer.cancel()
        channel?.close(promise: nil)
        return chain
    }

    static func day(_ seconds: time_t) -> String {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return padded(Int(parts.tm_year) + 1900, 4) + "-" + padded(Int(parts.tm_mon) + 1, 2) + "-" + padded(Int(parts.tm_mday), 2)
    }
}
