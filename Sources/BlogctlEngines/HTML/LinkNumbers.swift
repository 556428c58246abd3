#if canImport(Glibc)
import Glibc
#endif
import CoreKit

/// A body's link targets, numbered in order of first appearance (the list after the body),
/// and what each `href` resolved to. Bounded: at most `limit` targets numbered and as many
/// `href`s remembered, each target cut at `targetLimit` bytes, so a body of millions of links
/// costs no more memory than one of ten thousand (blogctl(1), read); past the limit a new
/// target is counted (`beyondLimit`), not kept.
struct LinkNumbers {
    static let limit = 10_000
    static let targetLimit = 2_048

    /// The numbered targets, in order: target `n` is `targets[n - 1]`.
    private(set) var targets: [String] = []
    private var numbers: [String: Int] = [:]
    /// Links past `limit`, counted, not kept.
    private(set) var beyondLimit = 0
    /// Each `href` seen (at most `limit` of them), as libxml2 gave it, resolved and cleaned once.
    private var resolved: [String: String] = [:]
    /// The last `href` found in `resolved`, as libxml2's bytes, and its target: a link to the
    /// same place as the one before it is known without a String or a lookup made.
    private var lastHref: (bytes: [UInt8], target: String)?
    /// The ASCII hrefs in `resolved`: one never seen (most past the numbered ones, each new)
    /// is known so without a String made or a lookup.
    private var resolvedHrefs = ByteStringFilter(bitCount: 1 << 17)
    /// The last target numbered (or not, past `limit`), and its number.
    private var lastNumbered: (target: String, number: Int?)?

    /// A target's number in the list; nil past `limit` (the link's text stays, unnumbered).
    mutating func number(_ target: String) -> Int? {
        // A number, once given or refused, stays so: the last one needs no lookup.
        if let last = lastNumbered, last.target == target {
            if last.number == nil { beyondLimit += 1 }
            return last.number
        }
        let number = newNumber(target)
        lastNumbered = (target, number)
        return number
    }

    private mutating func newNumber(_ target: String) -> Int? {
        let kept = target.utf8.count > Self.targetLimit ? String(decoding: target.utf8.prefix(Self.targetLimit), as: UTF8.self) + "…" : target
        if let number = numbers[kept] { return number }
        guard targets.count < Self.limit else {
            beyondLimit += 1
            return nil
        }
        targets.append(kept)
        numbers[kept] = targets.count
        return targets.count
    }

    /// The target of the `href` `raw` (libxml2's bytes), resolved by `resolver` and cleaned as
    /// any server text (it is printed in the link list, or inline in Markdown), once per
    /// `href`. Looked up by the attribute's own text, cleaned only when resolved: past the
    /// numbered links a target never seen is not numbered, so on a terminal (`numberedOnly`)
    /// it is not resolved at all (nil, counted), and a body of a million links costs a lookup
    /// each.
    mutating func target(of raw: UnsafeBufferPointer<UInt8>, numberedOnly: Bool, resolver: LinkResolver) -> String? {
        if let last = lastHref, last.bytes.count == raw.count,
           last.bytes.withUnsafeBufferPointer({ raw.count == 0 || memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 }) {
            return last.target
        }
        let hash = ByteStringFilter.hash(raw)
        let href = hash.map(resolvedHrefs.mayContain) == false ? nil : String(decoding: raw, as: UTF8.self)
        if let href, let known = resolved[href] {
            lastHref = (Array(raw), known)
            return known
        }
        if numberedOnly && targets.count >= Self.limit {
            beyondLimit += 1
            return nil
        }
        let text = href ?? String(decoding: raw, as: UTF8.self)
        let target = Terminal.sanitizeField(resolver.resolve(Terminal.sanitizeField(text)))
        if resolved.count < Self.limit {
            resolved[text] = target
            if let hash { resolvedHrefs.insert(hash) }
        }
        return target
    }

    /// The links open around the text, innermost last: each one's target, nil for one
    /// without (no `href`, or not numbered).
    private var openTargets: [String?] = []

    /// A link starts: its target found, and in Markdown its `[` put before the next word.
    mutating func open(_ attributes: HTMLAttributes, markdown: Bool, resolver: LinkResolver, inline: inout InlineText) {
        guard let raw = attributes.bytes("href"), let target = target(of: raw, numberedOnly: !markdown, resolver: resolver) else {
            openTargets.append(nil)
            return
        }
        openTargets.append(target)
        if markdown { inline.prefixNext("[") }
    }

    /// A link ends: `[text](URL)` in Markdown; on a terminal the text, then its number.
    mutating func close(markdown: Bool, inline: inout InlineText) {
        guard let target = openTargets.popLast() ?? nil else { return }
        if markdown {
            if !inline.cancelPrefix() { inline.appendGlued("](\(Self.markdownTarget(target)))") }
        } else {
            // Past the paragraph's cut nothing of it is shown: its links are not numbered either.
            if !inline.isCut, let number = number(target) { inline.appendGlued(marker: number) }
        }
    }

    /// The list after the body: `Links:`, then each target under its number, then how many
    /// were past the limit.
    func listLines() -> [[UInt8]] {
        var lines = [Array("Links:".utf8)]
        let numberWidth = String(targets.count).count + 2
        for (index, target) in targets.enumerated() {
            let label = "[\(index + 1)]"
            lines.append(Array((label + String(repeating: " ", count: numberWidth - label.count + 1) + target).utf8))
        }
        if beyondLimit > 0 {
            lines.append(Array("[…] \(beyondLimit) more links, past the first \(Self.limit), not numbered".utf8))
        }
        return lines
    }

    /// `url` as a Markdown link's target: in `<>` when it holds a space or a `)`, by bytes (a
    /// `)` followed by a combining mark is one Character, but still the `)` that would end
    /// the link).
    static func markdownTarget(_ url: String) -> String {
        url.utf8.contains(UInt8(ascii: " ")) || url.utf8.contains(UInt8(ascii: ")")) ? "<" + url + ">" : url
    }
}
