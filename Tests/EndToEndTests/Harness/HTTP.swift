import ToolboxKit

/// A direct request to mockd, for checking what the server holds.
func fetch(_ base: String, _ path: String, method: String = "GET", body: String? = nil,
           headers: [(String, String)] = []) async throws -> APIClient.Response {
    // A long timeout: the test process blocks its few threads while tools run, and a
    // request of its own may wait for a thread far longer than any server takes.
    try await APIClient.using(server: try ServerURL(base), timeout: 600, retries: 0) { client in
        try await client.send(.init(rawValue: method), path, headers: headers, body: body.map { Array($0.utf8) })
    }
}

/// The status of a direct request, 5xx included (the client would throw after its retries).
func fetchStatus(_ base: String, _ path: String) async throws -> Int {
    do {
        return try await fetch(base, path).status
    } catch ToolError.httpStatus(_, let status, _) {
        return status
    }
}
