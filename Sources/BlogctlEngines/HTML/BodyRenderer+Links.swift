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
        if linksBeyondLimit > 0 {
            emitLine(Array("[…] \(linksBeyondLimit) more links, past the first \(Self.linkLimit), not numbered".utf8), width: 0)
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

    /// The most links numbered, and the longest target kept: a body of millions of links
    /// costs no more memory than one of ten thousand (blogctl(1), read).
    static let linkLimit = 10_000
    static let linkTargetLimit = 2_048

    /// A target's number in the list; nil past `linkLimit` (the link's text stays, unnumbered).
    func linkNumber(_ target: String) -> Int? {
        // A number, once given or refused, stays so: the last one needs no lookup.
        if let last = lastNumbered, last.target == target {
            if last.number == nil { linksBeyondLimit += 1 }
            return last.number
        }
        let number = newLinkNumber(target)
        lastNumbered = (target, number)
        return number
    }

    private func newLinkNumber(_ target: String) -> Int? {
        let kept = target.utf8.count > Self.linkTargetLimit ? String(decoding: target.utf8.prefix(Self.linkTargetLimit), as: UTF8.self) + "…" : target
        if let number = linkNumbers[kept] { return number }
        guard links.count < Self.linkLimit else {
            linksBeyondLimit += 1
            return nil
        }
        links.append(kept)
        linkNumbers[kept] = links.count
        return links.count
    }

    func markdownURL(_ url: String) -> String {
        url.contains(" ") || url.contains(")") ? "<" + url + ">" : url
    }

    func openLink(_ attributes: HTMLAttributes) {
        guard let raw = attributes.bytes("href") else {
            openLinks.append(nil)
            return
        }
        if let last = lastHref, last.bytes.count == raw.count,
           last.bytes.withUnsafeBufferPointer({ raw.count == 0 || memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 }) {
            openLinks.append(last.target)
            if markdown { inline.prefixNext("[") }
            return
        }
        // Looked up by the attribute's own text, cleaned only when resolved: past the numbered
        // links a target never seen is not numbered, so on a terminal it is not resolved at
        // all, and a body of a million links costs a lookup each.
        let href = String(decoding: raw, as: UTF8.self)
        let target: String
        if let known = resolvedTargets[href] {
            target = known
            lastHref = (Array(raw), known)
        } else if !markdown && links.count >= Self.linkLimit {
            linksBeyondLimit += 1
            openLinks.append(nil)
            return
        } else {
            // Printed in the link list or inline (Markdown): cleaned as any server text.
            target = Terminal.sanitizeField(options.links.resolve(Terminal.sanitizeField(href)))
            if resolvedTargets.count < Self.linkLimit { resolvedTargets[href] = target }
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
