import CoreKit

/// The page as it leaves the renderer, line by line: each line prefixed by the containers it
/// sits in (list markers, quote indents), a blank line between blocks where one was asked
/// for (never before the first line), handed to the sink in 64 KiB pieces or kept whole.
struct PageLines {
    /// Something that prefixes the lines inside it: a list item's marker then its indent, a
    /// blockquote's indent. `used` once its first line is out.
    struct Container {
        var first: [UInt8]
        var rest: [UInt8]
        var width: Int
        var used = false
    }

    /// Deeper nesting still renders, without further indentation, so the text keeps a width.
    static let deepestIndent = 12
    /// The fewest columns a line's text gets, however deep its indent.
    static let narrowest = 20

    private(set) var output: [UInt8] = []
    /// Where finished output goes as it grows, so a long page is never held whole; nil keeps it
    /// all in `output`.
    let sink: (([UInt8]) -> Void)?
    private var containers: [Container] = []
    /// Containers nested deeper than `deepestIndent`: counted, not kept, so that each line
    /// costs the same however deep the nesting goes.
    private var containersBeyondIndent = 0
    /// Whether a line is out (the output may have gone to the sink): no blank line before the first.
    private var wroteLine = false
    private var pendingBlank = false
    /// The bytes of the lines written (part of the renderer's `work`).
    private(set) var emitted = 0

    init(sink: (([UInt8]) -> Void)?) { self.sink = sink }

    /// The columns the containers take at the start of each line.
    var indent: Int { containers.reduce(0) { $0 + $1.width } }

    mutating func requestBlank() { pendingBlank = true }

    /// One line with the containers' prefixes, after the blank line a block asked for.
    mutating func emit(_ bytes: [UInt8]) {
        emit(writing: { $0 += bytes })
    }

    /// The same, the line appended by `write` straight to the output (a table's rows: no
    /// line made and copied for each).
    mutating func emit(writing write: (inout [UInt8]) -> Void) {
        if pendingBlank {
            if wroteLine { emitBlank() }
            pendingBlank = false
        }
        wroteLine = true
        let lineStart = output.count
        for index in containers.indices {
            output += containers[index].used ? containers[index].rest : containers[index].first
            containers[index].used = true
        }
        let start = output.count
        write(&output)
        emitted += output.count - start + 1
        // An empty line keeps only its prefixes' marks, as a blank one does (no trailing spaces).
        if output.count == start { while output.count > lineStart && output.last == 0x20 { output.removeLast() } }
        output.append(0x0A)
        if let sink, output.count >= 1 << 16 {
            sink(output)
            output.removeAll(keepingCapacity: true)
        }
    }

    /// An empty line carrying only the prefixes of containers already started (`>` in Markdown).
    mutating func emitBlank() {
        var line: [UInt8] = []
        for container in containers where container.used { line += container.rest }
        while line.last == 0x20 { line.removeLast() }
        output += line
        output.append(0x0A)
        pendingBlank = false
    }

    /// A container opens: `first` prefixes its first line, `rest` (or as many spaces) the
    /// others. Past `deepestIndent`, or where the text would have less than `narrowest` of
    /// `pageWidth` (long list numbers), a container indents no further, nor any inside it: no
    /// line is wider than the page, and the containers kept stay the outermost.
    mutating func push(first: [UInt8], rest: [UInt8], pageWidth: Int?) {
        let width = TextWidth.of(String(decoding: first, as: UTF8.self))
        guard containersBeyondIndent == 0, containers.count < Self.deepestIndent,
              pageWidth.map({ indent + width <= $0 - Self.narrowest }) ?? true else {
            containersBeyondIndent += 1
            return
        }
        let restPrefix = rest.isEmpty ? [UInt8](repeating: 0x20, count: width) : rest
        containers.append(Container(first: first, rest: restPrefix, width: width))
    }

    mutating func pop() {
        if containersBeyondIndent > 0 { containersBeyondIndent -= 1 }
        else if !containers.isEmpty { containers.removeLast() }
    }

    /// Hands what is left to the sink.
    mutating func finish() {
        if let sink, !output.isEmpty {
            sink(output)
            output.removeAll()
        }
    }
}
