/// An absolute http(s) URL taken apart as RFC 3986 does, by bytes, so that the toolbox asks
/// one question one way: where a `Location` leads (§5.2, dot segments removed), and whether
/// two URLs share an origin or a credential's scope (compared after §6.2.2 normalisation:
/// scheme and host in lower case, the default port dropped, `%7e` as `~`, `%2f` kept).
public struct URLReference: Sendable, Equatable {
    /// `http` or `https`, lower case.
    public let scheme: String
    /// `user:password` as written, or nil; never part of the origin.
    public let userInfo: String?
    /// The host, lower case (an IPv6 address without its brackets).
    public let host: String
    /// The port, the scheme's default when the URL names none.
    public let port: Int
    /// The path, normalised: dot segments removed, percent-escapes of unreserved
    /// characters decoded, the others in upper case. Empty only when the URL had none.
    public let path: String
    /// What follows `?`, without it, or nil.
    public let query: String?
    /// `scheme://host`, with the port only when it is not the scheme's default; made once,
    /// as a feed's hundred thousand links are each read against the same base.
    let authority: String

    /// Parses an absolute http(s) URL; nil for anything else. The fragment is dropped.
    public init?(_ text: String) {
        var bytes = Array(text.utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }
        guard let schemeEnd = text.schemeEnd else { return nil }
        let schemeLength = text.utf8.distance(from: text.startIndex, to: schemeEnd)
        let scheme = String(decoding: bytes[..<(schemeLength - 3)], as: UTF8.self).asciiLowercased
        guard scheme == "http" || scheme == "https", schemeLength <= bytes.count else { return nil }
        let rest = Array(bytes[schemeLength...])
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        var authority = Array(rest[..<authorityEnd])
        var userInfo: String?
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            userInfo = String(decoding: authority[..<at], as: UTF8.self)
            authority = Array(authority[(at + 1)...])
        }
        var hostBytes = authority
        var port = scheme == "https" ? 443 : 80
        let bracketEnd = authority.first == UInt8(ascii: "[") ? authority.firstIndex(of: UInt8(ascii: "]")) : nil
        if let colon = authority.lastIndex(of: UInt8(ascii: ":")), colon > (bracketEnd ?? -1) {
            let digits = authority[(colon + 1)...]
            if !digits.isEmpty {
                guard digits.count <= 5, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                      let number = Int(String(decoding: digits, as: UTF8.self)), number <= 65_535 else { return nil }
                port = number
            }
            hostBytes = Array(authority[..<colon])
        }
        if hostBytes.first == UInt8(ascii: "["), hostBytes.last == UInt8(ascii: "]") { hostBytes = Array(hostBytes.dropFirst().dropLast()) }
        guard !hostBytes.isEmpty else { return nil }
        let tail = rest[authorityEnd...]
        let question = tail.firstIndex(of: UInt8(ascii: "?"))
        self.scheme = scheme
        self.userInfo = userInfo
        self.host = String(decoding: hostBytes, as: UTF8.self).asciiLowercased
        self.port = port
        self.path = String(decoding: Self.removingDotSegments(Self.normalized(Array(tail[..<(question ?? tail.endIndex)]))), as: UTF8.self)
        self.query = question.map { String(decoding: tail[($0 + 1)...], as: UTF8.self) }
        self.authority = Self.authority(scheme: scheme, host: self.host, port: port)
    }

    /// `text` itself when it is an absolute http(s) URL that parsing gives back unchanged
    /// (`URLReference(text)?.absolute == text`), known from one pass over its bytes: a lower-case
    /// scheme, a host of lower-case letters, digits, dots and hyphens (no user, port or IPv6
    /// literal), a path as normalisation leaves it (`isNormalized`), no fragment. A feed's
    /// hundred thousand links are mostly written so; a parse each made a dozen arrays. Nil
    /// when it may not be so: the long way answers then.
    public static func unchangedAbsolute(_ text: String) -> String? {
        let unchanged = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            let start = bytes.starts(with: "https://".utf8) ? 8 : bytes.starts(with: "http://".utf8) ? 7 : 0
            guard start > 0 else { return false }
            var index = start
            while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
                let byte = bytes[index]
                guard (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2E || byte == 0x2D else { return false }
                index += 1
            }
            // A host, then a path (which `absolute` would otherwise write as `/`).
            return index > start && index < bytes.count && isUnchangedPathAndQuery(bytes[index...])
        }
        return unchanged == true ? text : nil
    }

    /// `resolving(reference)?.absolute` for an absolute-path reference that needs no
    /// normalising (`/x/y?q`: one slash, no fragment, a path `isNormalized` passes): this
    /// URL's authority and the reference as it is, made in one step; nil for any other
    /// reference (the long way answers then). A feed's links are mostly of this kind.
    public func absoluteOfUnchangedPath(_ reference: String) -> String? {
        let unchanged = reference.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.first == UInt8(ascii: "/"), bytes.count < 2 || bytes[1] != UInt8(ascii: "/") else { return false }
            return Self.isUnchangedPathAndQuery(bytes[...])
        }
        return unchanged == true ? authority + reference : nil
    }

    /// Whether a path and its query (`/x/y?q`) are as parsing leaves them: no fragment, and a
    /// path `isNormalized` passes (the query is kept as it is).
    static func isUnchangedPathAndQuery(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var previous: UInt8 = 0
        var inQuery = false
        for byte in bytes {
            if byte == UInt8(ascii: "#") { return false }
            if byte == UInt8(ascii: "?") { inQuery = true }
            if !inQuery, byte == UInt8(ascii: "%") || (byte == UInt8(ascii: ".") && previous == UInt8(ascii: "/")) { return false }
            previous = byte
        }
        return true
    }

    /// The URL a reference (a `Location`) names when read against this one (RFC 3986 §5.2.2):
    /// an absolute URL, `//host/path`, `/path`, a relative path (dot segments removed), `?query`,
    /// or the empty reference, which is this URL itself. Nil when the result is not http(s).
    public func resolving(_ reference: String) -> URLReference? {
        var bytes = Array(reference.utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }
        let text = String(decoding: bytes, as: UTF8.self)
        if Self.hasScheme(bytes) { return URLReference(text) }
        if bytes.starts(with: "//".utf8) { return URLReference(scheme + ":" + text) }
        let question = bytes.firstIndex(of: UInt8(ascii: "?"))
        let referencePath = Array(bytes[..<(question ?? bytes.endIndex)])
        let referenceQuery = question.map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) }
        var path: [UInt8]
        var query: String?
        if referencePath.isEmpty {
            path = Array(self.path.utf8)
            query = referenceQuery ?? self.query
        } else if referencePath.first == UInt8(ascii: "/") {
            if Self.isNormalized(referencePath) {
                // Already as parsing would leave it (a feed's links, a hundred thousand a
                // feed): this URL's authority, that path, no second parse.
                return URLReference(scheme: scheme, host: host, port: port, authority: authority,
                                    path: String(decoding: referencePath, as: UTF8.self), query: referenceQuery)
            }
            path = Self.removingDotSegments(referencePath)
            query = referenceQuery
        } else {
            // Merged with the base's folder (§5.2.3), then dot segments removed.
            let base = Array(self.path.utf8)
            let folder = base.lastIndex(of: UInt8(ascii: "/")).map { Array(base[...$0]) } ?? [UInt8(ascii: "/")]
            path = Self.removingDotSegments(folder + referencePath)
            query = referenceQuery
        }
        return URLReference(authority + String(decoding: path, as: UTF8.self) + (query.map { "?" + $0 } ?? ""))
    }

    private init(scheme: String, host: String, port: Int, authority: String, path: String, query: String?) {
        self.authority = authority
        self.scheme = scheme
        userInfo = nil
        self.host = host
        self.port = port
        self.path = path
        self.query = query
    }

    /// Whether a path is what `normalized` and `removingDotSegments` would make it: no
    /// percent-escape and no segment starting with a dot (`/.x` is sent the long way too).
    static func isNormalized(_ path: [UInt8]) -> Bool {
        var previous: UInt8 = 0
        for byte in path {
            if byte == UInt8(ascii: "%") || (byte == UInt8(ascii: ".") && previous == UInt8(ascii: "/")) { return false }
            previous = byte
        }
        return true
    }

    /// `scheme://host:port`, the port always written: what two URLs must share to be one origin.
    public var origin: String {
        let shownHost = host.utf8.contains(UInt8(ascii: ":")) ? "[" + host + "]" : host
        return scheme + "://" + shownHost + ":" + String(port)
    }

    static func authority(scheme: String, host: String, port: Int) -> String {
        let shownHost = host.utf8.contains(UInt8(ascii: ":")) ? "[" + host + "]" : host
        return scheme + "://" + shownHost + (port == (scheme == "https" ? 443 : 80) ? "" : ":" + String(port))
    }

    /// The URL without credentials or fragment, normalised: what a request is sent to.
    public var absolute: String { authority + (path.isEmpty ? "/" : path) + (query.map { "?" + $0 } ?? "") }

    public func sameOrigin(as other: URLReference) -> Bool { origin == other.origin }

    /// Whether this URL lies within `scope`: the same origin, and a path equal to the scope's
    /// or under it by whole segments (`/api` holds `/api/x`, never `/apix`).
    public func isWithin(_ scope: URLReference) -> Bool {
        guard sameOrigin(as: scope) else { return false }
        var prefix = Array(scope.path.utf8)
        while prefix.last == UInt8(ascii: "/") { prefix.removeLast() }
        let mine = Array(path.utf8)
        return prefix.isEmpty || mine == prefix || (mine.starts(with: prefix) && mine[prefix.count] == UInt8(ascii: "/"))
    }

    /// A scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`) before any `/`, `?`.
    public static func hasScheme(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, let first = bytes.first,
              (0x61...0x7A).contains(first | 0x20) else { return false }
        return bytes[..<colon].allSatisfy { (0x61...0x7A).contains($0 | 0x20) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }

    /// RFC 3986 §5.2.4, on bytes.
    static func removingDotSegments(_ input: [UInt8]) -> [UInt8] {
        var input = input[...]
        var output: [UInt8] = []
        func starts(_ text: String) -> Bool { input.starts(with: text.utf8) }
        while !input.isEmpty {
            if starts("../") { input = input.dropFirst(3) }
            else if starts("./") { input = input.dropFirst(2) }
            else if starts("/./") { input = input.dropFirst(2) }
            else if input.elementsEqual("/.".utf8) { input = [UInt8(ascii: "/")][...] }
            else if starts("/../") || input.elementsEqual("/..".utf8) {
                input = [UInt8(ascii: "/")] + input.dropFirst(starts("/../") ? 4 : 3)
                if let slash = output.lastIndex(of: UInt8(ascii: "/")) { output.removeSubrange(slash...) } else { output.removeAll() }
            } else if input.elementsEqual(".".utf8) || input.elementsEqual("..".utf8) { input = [][...] }
            else {
                let start = input.first == UInt8(ascii: "/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: UInt8(ascii: "/")) ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }

    /// Percent-escapes of unreserved characters decoded, the others' hex in upper case (§6.2.2).
    static func normalized(_ path: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < path.count {
            if path[index] == UInt8(ascii: "%"), index + 2 < path.count, let high = PercentEncoding.hexValue(path[index + 1]), let low = PercentEncoding.hexValue(path[index + 2]) {
                let value = high << 4 | low
                let unreserved = (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || (0x30...0x39).contains(value)
                    || value == 0x2D || value == 0x2E || value == 0x5F || value == 0x7E
                if unreserved { output.append(value) } else { output += [UInt8(ascii: "%")] + Array(String(value, radix: 16, uppercase: true).leftPadded(2).utf8) }
                index += 3
            } else {
                output.append(path[index])
                index += 1
            }
        }
        return output
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - utf8.count)) + self }
}
