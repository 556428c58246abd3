/// `user:password@` at the start of a URL's authority, the one reading of it for the server
/// URL and the proxy: percent-decoded as a browser decodes it, a missing password empty.
struct URLUserInfo: Equatable {
    let user: String
    let password: String

    /// Splits what follows `scheme://` into the credentials and the rest (host, port, path).
    /// The authority ends at the first `/`, `?` or `#` (RFC 3986 3.2: `http://host?to=a@b`
    /// has no credentials), the credentials at the last `@` before it (an
    /// unescaped `@` in a password stays in the password), the user at the first `:`. By
    /// bytes, not Characters: an `@` or `/` followed by a combining mark is one Character.
    static func split(_ afterScheme: Substring) -> (userInfo: URLUserInfo?, rest: Substring) {
        let authorityEnd = afterScheme.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? afterScheme.endIndex
        guard let at = afterScheme.utf8[..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else { return (nil, afterScheme) }
        let userinfo = afterScheme[..<at]
        let colon = userinfo.utf8.firstIndex(of: UInt8(ascii: ":"))
        let user = PercentEncoding.decodeLeniently(colon.map { userinfo[..<$0] } ?? userinfo)
        let password = colon.map { PercentEncoding.decodeLeniently(userinfo[userinfo.utf8.index(after: $0)...]) } ?? ""
        return (URLUserInfo(user: user, password: password), afterScheme[afterScheme.utf8.index(after: at)...])
    }
}
