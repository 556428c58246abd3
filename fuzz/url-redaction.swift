// Server and proxy URLs with credentials. Property: the password is in no message and no
// shown form of the URL, whatever surrounds it. The input holds the user, the password and the
// rest (host, port, path), cut at 0xFF bytes; the password is only checked when it is long
// enough to be told apart and appears nowhere else in the text.
enum Messages {
    /// Every fixed word the messages about URLs are made of.
    static let wording = """
        http:// https:// socks5:// invalid server URL: it must start with http:// or https://; it needs a host, and no query \
        or fragment; the port is not a number (write / and @ in a password as %2F and %40) unsupported proxy: use an http:// \
        or socks5:// proxy; invalid proxy: it needs a host and a port from 1 to 65535; cannot reach (r) is mockd running? \
        /conditions /x 127.0.0.1 :*** … "
        """
}

/// Whether `haystack` holds `needle`, byte for byte (a Character search misses a needle that
/// starts with a combining mark fused to what stands before it).
func holds(_ haystack: String, _ needle: String) -> Bool {
    let hay = Array(haystack.utf8), pin = Array(needle.utf8)
    guard !pin.isEmpty, pin.count <= hay.count else { return pin.isEmpty }
    for start in 0...(hay.count - pin.count) where hay[start] == pin[0] && hay[start..<(start + pin.count)].elementsEqual(pin) { return true }
    return false
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0xFF, maxSplits: 2, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    guard parts.count == 3 else { return 0 }
    let (user, password, rest) = (parts[0], parts[1], parts[2])
    let clean = Terminal.sanitizeField(password)
    // The parts must read back as parts: a user without `:`, `@` or `/`, and no `://` but the
    // scheme's (a password `//pw` after an empty scheme is the scheme's separator, not a password).
    guard clean.unicodeScalars.count >= 6, !clean.contains("*"), !holds(Terminal.sanitizeField(user), clean), !holds(rest, password),
          !user.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "/") }),
          // `pa@ss/word` cannot be told from the password `pa` and the host `ss` (RFC 3986: an
          // `@` in a password is written %40); an `@` alone is taken as part of it.
          !(password.utf8.contains(UInt8(ascii: "@")) && password.utf8.contains(UInt8(ascii: "/")))
    else { return 0 }
    func check(_ shown: String, _ what: String) {
        if holds(shown, clean) || holds(shown, password) { fatalError("\(what) shows the password: \(shown.debugDescription)") }
    }
    for scheme in ["http://", "https://", ""] {
        let text = scheme + user + ":" + password + "@" + rest
        // Only a password with a scalar found nowhere else (not in the user, the rest or the
        // messages' words) can be told apart when a message shows it.
        let elsewhere = Set((Terminal.sanitizeField(scheme + user + rest) + user + rest + Messages.wording).unicodeScalars)
        guard clean.unicodeScalars.contains(where: { !elsewhere.contains($0) }) else { continue }
        guard text.schemeEnd.map({ text.utf8.distance(from: text.startIndex, to: $0) }) == (scheme.isEmpty ? nil : scheme.utf8.count) else { continue }
        check(ServerURL.redacted(text), "redacted")
        do {
            let url = try ServerURL(text)
            check(url.description, "description")
            check(url.url("/conditions"), "url")
            check(ToolError.unreachable(url: url.url("/x"), reason: "r").message, "message")
        } catch {
            check(error.message, "server URL error")
        }
        do {
            let proxy = try ProxyChoice.parse(text)
            check(proxy.description, "proxy description")
        } catch {
            check(error.message, "proxy error")
        }
    }
    return 0
}
