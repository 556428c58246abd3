import ToolboxKit

/// Resolves link targets against the URL of the document they appear in (RFC 3986, section 5.2,
/// for the cases HTML bodies use: absolute, scheme-relative, host-relative, path-relative).
public struct LinkResolver: Sendable {
    public let document: String
    private let scheme: String
    private let origin: String
    private let directory: String

    /// For a post's body: links resolve against the URL the post is served at (`/post/ID` on
    /// `server`, or on the default server when none could be resolved).
    public init(postId: String, server: ServerURL?) {
        let path = "/post/" + ResourceID.pathSegment(postId)
        self.init(document: server?.requestURL(path) ?? ServerURL.defaultURL + path)
    }

    public init(document: String) {
        self.document = document
        let schemeEnd = document.firstRange(of: "://")
        scheme = schemeEnd.map { String(document[..<$0.lowerBound]) } ?? "http"
        let afterScheme = schemeEnd.map { $0.upperBound } ?? document.startIndex
        let pathStart = document[afterScheme...].firstIndex(of: "/") ?? document.endIndex
        origin = String(document[..<pathStart])
        var path = String(document[pathStart...])
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<query]) }
        directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/"
    }

    public func resolve(_ reference: String) -> String {
        let target = reference.trimmingSpaces()
        if target.isEmpty { return document }
        if Self.hasScheme(target) { return target }
        if target.hasPrefix("//") { return scheme + ":" + target }
        if target.hasPrefix("#") || target.hasPrefix("?") {
            let base = document.firstIndex(of: target.first!).map { String(document[..<$0]) } ?? document
            return base + target
        }
        let path = target.hasPrefix("/") ? target : directory + target
        return origin + Self.removingDotSegments(path)
    }

    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    /// `/a/b/../c/./d` → `/a/c/d`; the query and fragment are left alone.
    static func removingDotSegments(_ path: String) -> String {
        let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? path.endIndex
        var output: [Substring] = []
        let segments = path[..<cut].split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment == "." { if isLast { output.append("") }; continue }
            if segment == ".." {
                if output.count > 1 { output.removeLast() }
                if isLast { output.append("") }
                continue
            }
            output.append(segment)
        }
        var joined = output.joined(separator: "/")
        if !joined.hasPrefix("/") { joined = "/" + joined }
        return joined + path[cut...]
    }
}
