import ToolboxKit

/// The one massive post of the blog API: varied HTML (headings, paragraphs with emphasis and
/// links, nested lists, quotes, code, tables, entities) generated from a seed, so every start
/// of mockd serves the same bytes.
enum MassivePost {
    static let words = ["letter", "engine", "proof", "program", "machine", "theorem", "structure", "order",
                        "discipline", "elegance", "reason", "simplicity", "loop", "invariant", "state", "logic",
                        "correct", "method", "problem", "design", "clarity", "notation", "process", "abstraction",
                        "the", "a", "of", "and", "to", "in", "is", "that", "with", "for", "as", "on"]

    static func html(size: Int, seed: UInt64 = 1947) -> String {
        var random = SeededGenerator(seed: seed)
        var html = ""
        html.reserveCapacity(size + 4096)
        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        func sentence(_ length: Int) -> String {
            var text = ""
            for index in 0..<length {
                var word = words[pick(words.count)]
                if index == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
                switch pick(40) {
                case 0: word = "<em>\(word)</em>"
                case 1: word = "<strong>\(word)</strong>"
                case 2: word = "<code>\(word)</code>"
                case 3: word = "<a href=\"/post/\(1 + pick(8))\">\(word)</a>"
                case 4: word += " &amp;"
                default: break
                }
                text += (index == 0 ? "" : " ") + word
            }
            return text + "."
        }
        var letter = 0
        while html.utf8.count < size {
            letter += 1
            html += "<h2>Letter \(letter)</h2>\n"
            for _ in 0..<(3 + pick(4)) {
                html += "<p>" + (0..<(3 + pick(5))).map { _ in sentence(6 + pick(14)) }.joined(separator: " ") + "</p>\n"
            }
            switch letter % 5 {
            case 0:
                html += "<ul>\n" + (0..<4).map { _ in "<li>\(sentence(5))</li>\n" }.joined()
                    + "<li>Nested:<ol><li>\(sentence(4))</li><li>\(sentence(4))</li></ol></li>\n</ul>\n"
            case 1:
                html += "<blockquote><p>\(sentence(20))</p></blockquote>\n"
            case 2:
                html += "<pre><code>for i in 0..&lt;\(letter) {\n    invariant(i)\n}</code></pre>\n"
            case 3:
                html += "<table><tr><th>Term</th><th>Meaning</th></tr>"
                    + (0..<3).map { _ in "<tr><td>\(words[pick(words.count)])</td><td>\(sentence(6))</td></tr>" }.joined()
                    + "</table>\n"
            default:
                html += "<h3>Postscript</h3>\n<p>\(sentence(12)) &mdash; E.W.D.</p>\n"
            }
        }
        return html
    }
}
