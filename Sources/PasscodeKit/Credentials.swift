import ToolboxKit

/// HTTP Basic credentials: the user from `--user` or `PASSCODE_USER`, the password from
/// `PASSCODE_PASSWORD` or `~/.netrc`, never from the command line (where `ps` shows it).
public struct Credentials: Sendable, Equatable {
    public let user: String
    public let password: String

    public var authorizationHeader: String {
        Base64.basicAuthorization(user: user, password: password)
    }

    /// These credentials as the one value the client sends, bound to `server`'s origin and
    /// path: a redirect anywhere else never carries them (issue 46).
    public func bound(to server: ServerURL) -> Credential? {
        URLReference(server.base).map { Credential(user: user, password: password, scope: $0) }
    }

    /// Resolves the credentials for `host`, or says exactly how to set them.
    public static func resolve(userFlag: String?, host: String, environment: [String: String] = Environment.current,
                               netrcText: String? = nil) throws(ToolError) -> Credentials {
        let netrc = netrcText.map(Netrc.init(parsing:)) ?? readNetrc(environment)
        let entry = netrc?.entry(for: host)
        guard let user = userFlag ?? environment["PASSCODE_USER"].flatMap({ $0.isEmpty ? nil : $0 }) ?? entry?.login else {
            throw .usage("no user: pass --user NAME or set PASSCODE_USER (or add 'machine \(host) login NAME password …' to ~/.netrc)")
        }
        if let password = environment["PASSCODE_PASSWORD"], !password.isEmpty {
            return Credentials(user: user, password: password)
        }
        let matching = netrc?.entries.first { $0.machine == host && ($0.login == nil || $0.login == user) }
            ?? netrc?.entries.first { $0.machine == nil && ($0.login == nil || $0.login == user) }
        guard let password = matching?.password else {
            throw .usage("no password for \(user): set PASSCODE_PASSWORD or add 'machine \(host) login \(user) password …' to ~/.netrc")
        }
        return Credentials(user: user, password: password)
    }

    static func readNetrc(_ environment: [String: String]) -> Netrc? {
        let path = environment["NETRC"] ?? Paths.join(Paths(environment: environment).home, ".netrc")
        // A password file anyone else could write (or swap) is not used, as curl and ssh refuse it.
        if let reason = FileTrust.problem(path, limit: 1 << 20, home: environment["HOME"]) {
            Tool.running.warn("\(path): \(reason); not used")
            return nil
        }
        guard let bytes = try? LocalFile.read(path, limit: 1 << 20) else { return nil }
        return Netrc(parsing: String(decoding: bytes, as: UTF8.self))
    }
}
