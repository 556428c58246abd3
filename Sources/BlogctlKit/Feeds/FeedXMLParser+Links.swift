#if canImport(Glibc)
import Glibc
#endif
import CoreKit

/// A feed's links made absolute: read against the element's base, then the feed's URL.
extension FeedXMLParser {
    /// `reference` read against `base` (then the feed's URL): absolute http(s), or nil.
    func absolute(_ reference: String, base: String?) -> String? {
        let reference = FeedText.collapsed(reference)
        guard !reference.isEmpty else { return nil }
        // An absolute URL as parsing leaves it is its own answer, whatever the base.
        if let unchanged = URLReference.unchangedAbsolute(reference) { return unchanged }
        // The element's base, then the feed's URL (no array of the two made for each link);
        // an absolute path that needs no normalising the short way.
        func against(_ base: String) -> String? {
            bases.read(base).flatMap { $0.absoluteOfUnchangedPath(reference) ?? $0.resolving(reference)?.absolute }
        }
        if let base, let resolved = against(base) { return resolved }
        if base != url, let resolved = against(url) { return resolved }
        return URLReference(reference)?.absolute
    }

    /// The last base read as a URL: a feed's entries share one or two, and reading one again
    /// for each link was a twentieth of a 100,000-entry feed's parse.
    final class Bases {
        private var last: (text: String, reference: URLReference?)?

        func read(_ text: String) -> URLReference? {
            if let last, Self.sameBytes(last.text, text) { return last.reference }
            let reference = URLReference(text)
            last = (text, reference)
            return reference
        }

        /// Byte for byte, by memcmp over each String's own bytes (`elementsEqual` stepped
        /// through them for each link).
        static func sameBytes(_ left: String, _ right: String) -> Bool {
            guard left.utf8.count == right.utf8.count else { return false }
            let compared = left.utf8.withContiguousStorageIfAvailable { a -> Bool? in
                right.utf8.withContiguousStorageIfAvailable { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
            }
            return (compared ?? nil) ?? left.utf8.elementsEqual(right.utf8)
        }
    }
}
