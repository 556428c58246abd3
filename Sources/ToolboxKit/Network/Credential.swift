/// A user and password bound to where they may go: the origin and path of the URL they were
/// given for. The one request path (`APIClient.makeRequest`) asks `authorization(for:)` at
/// every request, redirects included, and sends HTTP Basic only inside that scope; no code
/// sets an `Authorization` header by hand. Whatever their source (`--server` userinfo,
/// `PASSCODE_PASSWORD`, `~/.netrc`), credentials are this value.
public struct Credential: Sendable, Equatable {
    public let user: String
    public let password: String
    /// Where they belong: the server URL they were given for, normalised.
    public let scope: URLReference

    public init(user: String, password: String, scope: URLReference) {
        self.user = user
        self.password = password
        self.scope = scope
    }

    /// The credentials written in a server URL (`https://alice:secret@host`), for that server.
    public init?(server: ServerURL) {
        guard let user = server.user, let scope = URLReference(server.base) else { return nil }
        self.init(user: user, password: server.password ?? "", scope: scope)
    }

    /// The `Authorization` header's value for a request to `url`: HTTP Basic when `url`,
    /// normalised, lies within the scope (same scheme, host and port, the same path or one
    /// under it); nil anywhere else, as curl sends them without --location-trusted.
    public func authorization(for url: String) -> String? {
        guard let target = URLReference(url), target.isWithin(scope) else { return nil }
        return Base64.basicAuthorization(user: user, password: password)
    }
}
