extension String {
    /// Upper-case ASCII letters made lower case, every other byte kept: how a URL's scheme and
    /// host compare (RFC 3986 §3.1, §3.2.2), never with Unicode's case rules, which make
    /// `K` (U+212A KELVIN SIGN) a `k` and so another host of the same origin.
    public var asciiLowercased: String {
        guard utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return self }
        return String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
