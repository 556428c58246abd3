import ToolboxKit

/// Links: numbered in order of first appearance and listed after the body.
extension BodyRenderer {
    /// The numbered link targets, after the body (text only; Markdown links are inline).
    func appendLinkList() {
        flushParagraph()
        guard !markdown, !links.isEmpty else { return }
        requestBlank()
        emitLine(Array("Links:".utf8), width: 6)
        let numberWidth = String(links.count).count + 2
        for (index, link) in links.enumerated() {
            let label = "[\(index + 1)]"
            emitLine(Array((label + String(repeating: " ", count: numberWidth - label.count + 1) + link).utf8), width: 0)
        }
    }

    func linkNumber(_ target: String) -> Int {
        if let number = linkNumbers[target] { return number }
        links.append(target)
        linkNumbers[target] = links.count
        return links.count
    }

    func markdownURL(_ url: String) -> String {
        url.contains(" ") || url.contains(")") ? "<" + url + ">" : url
    }
}
