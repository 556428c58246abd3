import CoreKit

/// What the stream did with a document, for tests (which cannot name `HTMLStream`: its
/// members hold libxml2's types, whose headers only this module sees).
package enum HTMLStreamProbe {
    package struct Report {
        /// The bytes of text events that are `x`, and `y`.
        var xs = 0
        var ys = 0
        var deepest = 0
        var leftOut = 0
        /// The most bytes libxml2 held unparsed after a chunk.
        var held = 0
        /// The `href` of each `a` opened.
        var hrefs: [String] = []
    }

    /// Feeds `html` in pieces of `piece` bytes and reports.
    static func run(_ html: [UInt8], piece: Int) throws(ToolError) -> Report {
        final class Count { var report = Report() }
        let count = Count()
        let stream = try HTMLStream { event in
            switch event {
            case .text(let text):
                count.report.xs += text.filter { $0 == UInt8(ascii: "x") }.count
                count.report.ys += text.filter { $0 == UInt8(ascii: "y") }.count
            case .enter(let tag, let attributes):
                if tag == .link, let href = attributes.value("href") { count.report.hrefs.append(href) }
            case .exit: break
            }
        }
        var start = 0
        while start < html.count {
            let end = min(start + piece, html.count)
            html[start..<end].withUnsafeBufferPointer { stream.feed($0) }
            start = end
        }
        stream.finish()
        var report = count.report
        report.deepest = stream.deepestSeen
        report.leftOut = stream.startTagsLeftOut
        report.held = stream.heldMost
        return report
    }
}
