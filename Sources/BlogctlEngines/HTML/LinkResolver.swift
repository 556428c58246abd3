import CoreKit

/// Resolves link targets against the URL of the document they appear in, as RFC 3986 §5.2
/// says, through the toolbox's one reader of URLs (`URLReference`, which redirects use too):
/// a target with a scheme as it is, anything else read against the document, dot segments
/// removed, its fragment kept.
public struct LinkResolver: Sendable {
    public let document: String
    private let base: URLReference?

    /// For a post's body: links resolve against the URL the post is served at (`/post/ID` on
    /// `server`, or on the default server when none could be resolved).
    public init(postId: String, server: ServerURL?) {
        let path = "/post/" + ResourceID.pathSegment(postId)
        self.init(document: server?.requestURL(path) ?? ServerURL.defaultURL + path)
    }

    public init(document: String) {
        self.document = document
        base = URLReference(document)
    }

    public func resolve(_ reference: String) -> String {
        let target = reference.trimmingSpaces()
        if target.isEmpty { return document }
        // By bytes: a scheme is ASCII, and `:` followed by a combining mark is still a colon.
        if URLReference.hasScheme(Array(target.utf8)) { return target }
        let hash = target.utf8.firstIndex(of: UInt8(ascii: "#"))
        let fragment = hash.map { String(target[$0...]) } ?? ""
        let withoutFragment = hash.map { String(target[..<$0]) } ?? target
        guard let base, let resolved = base.resolving(withoutFragment) else { return target }
        return resolved.absolute + fragment
    }
}
