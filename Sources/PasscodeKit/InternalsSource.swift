import FoundationEssentials
import ToolboxKit

/// Half of the server's answer to one call.
public enum Arrival: Sendable, Equatable {
    case code(String)
    case setup([Int])
}

/// Where a call's code and keypad setup come from. The session depends on this, not on
/// HTTP, so the stress test can play every order and failure.
public protocol InternalsSource: Sendable {
    /// Delivers the two arrivals of one call as they come, then returns; throws when the
    /// call fails. Cancelled when the session abandons the call.
    func fetch(_ deliver: @escaping @Sendable (Arrival) async -> Void) async throws(ToolError)
}

/// `POST /getPasscodeInternals` with HTTP Basic credentials, answered as server-sent events
/// `code` and `setup`, in either order, each when it is ready. The credentials are the
/// client's (`Credentials.bound(to:)`): only its one request path sends them, and only to
/// their server.
public struct ServerInternalsSource: InternalsSource {
    public static let path = "/getPasscodeInternals"
    public let client: APIClient

    public init(client: APIClient) {
        self.client = client
    }

    struct CodeEvent: Decodable { let code: String }
    struct SetupEvent: Decodable { let setup: [Int] }

    /// One call, ended at `--timeout` whatever the server sends meanwhile (a comment line
    /// every few seconds keeps a connection from ever being silent): every request has an end.
    public func fetch(_ deliver: @escaping @Sendable (Arrival) async -> Void) async throws(ToolError) {
        let url = client.server.url(Self.path)
        let seconds = client.timeout
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.call(deliver) }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(Int64(max(seconds, 0.001) * 1000)))
                    throw ToolError.timedOut(url: url, seconds: seconds)
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch let error as ToolError {
            throw error
        } catch {
            throw Task.isCancelled ? .interrupted : client.describe(error, url: url)
        }
    }

    private func call(_ deliver: @escaping @Sendable (Arrival) async -> Void) async throws(ToolError) {
        let url = client.server.url(Self.path)
        let response = try await client.open(.POST, Self.path, headers: [("Accept", "text/event-stream")])
        switch response.status {
        case 200: break
        case 401, 403: throw .credentialsRefused(url: url)
        case 400: throw .usage("\(url) refused the request (HTTP 400): are credentials set?")
        default: throw .httpStatus(url: url, status: response.status, message: "")
        }
        var parser = ServerSentEventParser(maximumEventSize: 64 * 1024)
        var gotCode = false
        var gotSetup = false
        do {
            for try await chunk in response.body {
                let events: [ServerSentEvent]
                do { events = try parser.feed(chunk.readableBytesView) } catch {
                    throw ToolError.protocolViolation(url: url, detail: "an event larger than 64 KiB")
                }
                for event in events {
                    switch event.type {
                    case "code":
                        let value = try decode(CodeEvent.self, event, url).code
                        guard PasscodeMachine.isValidCode(value) else {
                            throw ToolError.protocolViolation(url: url, detail: "malformed code event: expected \(PasscodeMachine.codeLength) digits, found \(Terminal.quote(value))")
                        }
                        gotCode = true
                        await deliver(.code(value))
                    case "setup":
                        let value = try decode(SetupEvent.self, event, url).setup
                        guard PasscodeMachine.isValidSetup(value) else {
                            throw ToolError.protocolViolation(url: url, detail: "malformed setup event: expected the digits 0 to 9, each once")
                        }
                        gotSetup = true
                        await deliver(.setup(value))
                    case "error":
                        throw ToolError.protocolViolation(url: url, detail: "the server sent an error event: \(Terminal.quote(event.data, limit: 200))")
                    default:
                        continue  // Unknown event types are for future servers.
                    }
                    if gotCode && gotSetup { return }
                }
            }
        } catch let error as ToolError {
            throw error
        } catch {
            if Task.isCancelled { throw .interrupted }
            throw client.describe(error, url: url)
        }
        let missing = gotCode ? "setup" : (gotSetup ? "code" : "code and setup")
        throw .protocolViolation(url: url, detail: "the stream ended before the \(missing) arrived")
    }

    private func decode<T: Decodable>(_ type: T.Type, _ event: ServerSentEvent, _ url: String) throws(ToolError) -> T {
        do { return try JSONCoding.decode(type, from: Data(event.data.utf8)) } catch {
            throw .protocolViolation(url: url, detail: "malformed \(event.type) event: \(error.description)")
        }
    }
}
