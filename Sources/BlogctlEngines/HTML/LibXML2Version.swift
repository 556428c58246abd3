import CoreKit

/// Which libxml2 blogctl reads HTML with, apart from `LibXML2` (whose members hold libxml2's
/// types, which tests cannot name).
package enum LibXML2Version {
    /// The series whose reading of markup `MarkupScanner` and `HTMLStream` follow, as their
    /// tests (`MarkupReadingTests`, `NestingBoundTests`) check against the installed library:
    /// 2.9.x. 2.14 rewrote the HTML tokenizer.
    static let provenSeries = 20900..<21000

    /// The version of the library loaded (`xmlParserVersion`), loading it.
    static func loaded() throws(ToolError) -> Int { try LibXML2.loaded().version }

    /// What is said once, on stderr, when the loaded library is not of `provenSeries`: bounds
    /// hold whatever it is (flattening and cutting need no agreement), but a page may be laid
    /// out otherwise than the scanner foresaw. nil for a proven one.
    static func unproven(_ version: Int) -> String? {
        guard !provenSeries.contains(version) else { return nil }
        return "libxml2 \(shown(version)) has not been checked against blogctl's reading of HTML (checked: 2.9); "
            + "pages stay bounded but may be laid out differently"
    }

    /// `20914` as `2.9.14`; 0 (not known) as "of unknown version".
    static func shown(_ version: Int) -> String {
        version > 0 ? "\(version / 10000).\(version / 100 % 100).\(version % 100)" : "of unknown version"
    }
}
