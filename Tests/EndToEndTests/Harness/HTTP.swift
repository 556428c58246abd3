import ToolboxKit

/// A direct request to mockd, for checking what the server holds.
func fetch(_ base: String, _ path: String, method: String = "GET", body: String? = nil,
           headers: [(String, String)] = []) async throws -> APIClient.Response {
    try await APIClient.using(server: try ServerURL(base), timeout: 30, retries: 0) { client in
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
