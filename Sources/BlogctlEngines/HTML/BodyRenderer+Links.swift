import CoreKit

/// Links: numbered in order of first appearance and listed after the body.
extension BodyRenderer {
    /// The numbered link targets, after the body (text only; Markdown links are inline).
    package func appendLinkList() {
        flushParagraph()
        guard !markdown, !links.isEmpty else { return }
        requestBlank()
        for line in linkNumbers.listLines() { lines.emit(line) }
    }

    /// Numbers `targets` after the body's links, each that is not among them yet (within
    /// the same limits).
    package func numberAlso(_ targets: [String]) {
        for target in targets where target.utf8.count <= LinkNumbers.targetLimit { _ = linkNumbers.number(target) }
    }

    /// Lines made by the program (a feed entry's `Link:` and `Enclosure:` lines), each as it
    /// is: a URL is never wrapped, so that it can be copied whole.
    package func fieldLines(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        flushParagraph()
        requestBlank()
        for line in lines { self.lines.emit(Array(line.utf8)) }
        requestBlank()
    }
}
