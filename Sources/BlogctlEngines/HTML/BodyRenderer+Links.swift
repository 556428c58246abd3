#if canImport(Glibc)
import Glibc
#endif
import CoreKit

/// Links: numbered in order of first appearance and listed after the body.
extension BodyRenderer {
    /// The numbered link targets, after the body (text only; Markdown links are inline).
    package func appendLinkList() {
        flushParagraph()
        guard !markdown, !links.isEmpty else { return }
        requestBlank()
        emitLine(Array("Links:".utf8), width: 6)
        let numberWidth = String(links.count).count + 2
        for (index, link) in links.enumerated() {
            let label = "[\(index + 1)]"
            emitLine(Array((label + String(repeating: " ", count: numberWidth - label.count + 1) + link).utf8), width: 0)
        }
        if linkNumbers.beyondLimit > 0 {
            emitLine(Array("[…] \(linkNumbers.beyondLimit) more links, past the first \(Self.linkLimit), not numbered".utf8), width: 0)
        }
    }

    /// Numbers `targets` after the body's links, each that is not among them yet (within
    /// the same limits).
    package func numberAlso(_ targets: [String]) {
        for target in targets where target.utf8.count <= Self.linkTargetLimit { _ = linkNumber(target) }
    }

    /// Lines made by the program (a feed entry's `Link:` and `Enclosure:` lines), each as it
    /// is: a URL is never wrapped, so that it can be copied whole.
    package func fieldLines(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        flushParagraph()
        requestBlank()
        for line in lines { emitLine(Array(line.utf8), width: TextWidth.of(line)) }
        requestBlank()
    }

    /// The most links numbered, and the longest target kept (`LinkNumbers`).
    static var linkLimit: Int { LinkNumbers.limit }
    static var linkTargetLimit: Int { LinkNumbers.targetLimit }

    /// A target's number in the list; nil past `linkLimit` (the link's text stays, unnumbered).
    func linkNumber(_ target: String) -> Int? { linkNumbers.number(target) }

    func markdownURL(_ url: String) -> String {
        // By bytes: `)` followed by a combining mark is one Character, but still the `)` that
        // would end Markdown's link.
        url.utf8.contains(UInt8(ascii: " ")) || url.utf8.contains(UInt8(ascii: ")")) ? "<" + url + ">" : url
    }

    func openLink(_ attributes: HTMLAttributes) {
        guard let raw = attributes.bytes("href"),
              let target = linkNumbers.target(of: raw, numberedOnly: !markdown, resolver: options.links) else {
            openLinks.append(nil)
            return
        }
        openLinks.append(target)
        if markdown { inline.prefixNext("[") }
    }

    /// `[text](URL)` in Markdown; on a terminal the text, then its number in the link list.
    func closeLink() {
        guard let target = openLinks.popLast() ?? nil else { return }
        if markdown {
            if !inline.cancelPrefix() { inline.appendGlued("](\(markdownURL(target)))") }
        } else {
            // Past the paragraph's cut nothing of it is shown: its links are not numbered either.
            if !inline.isCut, let number = linkNumber(target) { inline.appendGlued(marker: number) }
        }
    }
}
