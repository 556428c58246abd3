import ToolboxKit

/// What became of one try at sending a change.
public enum SendOutcome: Sendable, Equatable {
    /// 2xx: the server has it.
    case accepted
    /// 4xx: the server refuses it; trying again will not help.
    case rejected(String)
    /// 5xx, timeout, connection error: worth another try later.
    case failed(String)
}

/// Sends one change to the server. The engine depends on this, not on HTTP, so its rules
/// are tested against a scripted server.
public protocol ChangeSender: Sendable {
    func send(_ claim: SyncQueue.Claim) async -> SendOutcome
    /// The server the changes go to, as the store names its server; nil when not a server.
    var server: String? { get }
}

extension ChangeSender {
    public var server: String? { nil }
}

/// `PATCH /devices/{id}` with the full intended value.
public struct HTTPChangeSender: ChangeSender {
    public let client: APIClient

    public init(client: APIClient) { self.client = client }

    public var server: String? { String(client.server.requestURL("/").dropLast()) }

    public func send(_ claim: SyncQueue.Claim) async -> SendOutcome {
        do {
            // Not retried here: the engine retries, counting every try in the store.
            let patch = DevicePatch(claim)
            let response = try await client.send(.PATCH, patch.path,
                                                 headers: [("Content-Type", "application/json")],
                                                 body: Array(patch.body.utf8), idempotent: false)
            switch response.status {
            case 200..<300: return .accepted
            // Throttling and timeouts say "later", not "never".
            case 408, 425, 429: return .failed("HTTP \(response.status)")
            case 400..<500: return .rejected(response.summary.isEmpty ? "HTTP \(response.status)" : response.summary)
            default: return .failed("HTTP \(response.status)")
            }
        } catch {
            // Kept as the change's last error, shown in columns cut at their end: reason first.
            return .failed(error.brief)
        }
    }
}
