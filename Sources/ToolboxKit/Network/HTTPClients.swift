import AsyncHTTPClient
import Synchronization

/// The HTTP clients of one run that asks many servers (a refresh of every subscribed feed):
/// one per network setup, so that the feeds of one host reuse its connections, and the trust
/// store is read once rather than for each feed. Shut down once, when the run is done.
public final class HTTPClients: Sendable {
    private let clients = Mutex<[String: HTTPClient]>([:])

    public init() {}

    /// The client for `setup`, made by `make` the first time.
    func client(_ setup: String, make: () throws(ToolError) -> HTTPClient) throws(ToolError) -> HTTPClient {
        try clients.withLock { clients throws(ToolError) in
            if let client = clients[setup] { return client }
            let client = try make()
            clients[setup] = client
            return client
        }
    }

    public func shutdown() async {
        for client in clients.withLock({ Array($0.values) }) { try? await client.shutdown() }
    }
}
