extension String {
    /// The string with each scalar that `escapes` names replaced by its text, scalar by
    /// scalar: for text that a shell, SQL, a URL or a format will parse, where a quote followed
    /// by a combining mark is one Swift Character but still a quote to the parser, and a
    /// Character-level `replacing` would leave it bare.
    public func escapingScalars(_ escapes: [Unicode.Scalar: String]) -> String {
        guard unicodeScalars.contains(where: { escapes[$0] != nil }) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if let escaped = escapes[scalar] { result.append(contentsOf: escaped.unicodeScalars) } else { result.append(scalar) }
        }
        return String(result)
    }
}
