import CoreKit
import BlogctlEngines

/// A post as `read` shows it: the header (title, author and their title, date), the body
/// rendered, then the numbered links.
public enum PostPage {
    /// Renders `body` (HTML, or plain text when it has no tags) for `metadata`.
    public static func render(_ metadata: PostMetadata, body: PostBody, options: RenderOptions) throws(ToolError) -> [UInt8] {
        var page: [UInt8] = []
        try render(metadata, body: body, options: options) { page += $0 }
        return page
    }

    public static func render(_ metadata: PostMetadata, body: [UInt8], options: RenderOptions) throws(ToolError) -> [UInt8] {
        try render(metadata, body: .bytes(body), options: options)
    }

    /// Renders as `render`, handing the text to `sink` piece by piece as it is laid out.
    /// `indexing`: the search index's renderer, fed by the same parse (a body just downloaded).
    public static func render(_ metadata: PostMetadata, body: PostBody, options: RenderOptions,
                              indexing: SharedParse? = nil, sink: @escaping ([UInt8]) -> Void) throws(ToolError) {
        if options.format == .html {
            streamSanitizedHTML(body, sink: sink)
            return
        }
        _ = try LibXML2.loaded()  // A failure is said before the header is written.
        let renderer = BodyRenderer(options: options, sink: sink)
        renderer.heading(metadata.title, level: 1)
        renderer.paragraph(byline(metadata))
        renderer.fieldLines(fields(metadata))
        try renderBody(body, into: renderer, indexing: indexing)
        renderer.numberAlso(carried(metadata))
        renderer.appendLinkList()
        renderer.finish()
    }

    /// A feed entry's own page, files and picture, one line each under the byline
    /// (`Link: URL`, `Enclosure: URL (audio/mpeg, 24.1 MB, 1:02:05)`, `Picture: URL`); none
    /// for the API's posts.
    public static func fields(_ metadata: PostMetadata) -> [String] {
        (metadata.link.map { ["Link: " + Terminal.sanitizeField($0)] } ?? [])
            + (metadata.enclosures ?? []).map { "Enclosure: " + $0.described }
            + (metadata.picture.map { ["Picture: " + Terminal.sanitizeField($0)] } ?? [])
    }

    /// The targets a post carries besides its body's links (its page, files, picture): numbered
    /// after the body's, each once, so that `open ID N` reaches an episode as it reaches a link.
    public static func carried(_ metadata: PostMetadata) -> [String] {
        (metadata.link.map { [$0] } ?? []) + (metadata.enclosures ?? []).map(\.url) + (metadata.picture.map { [$0] } ?? [])
    }

    /// The link targets of a post, numbered (from 1) as `read` numbers them: its body's, then
    /// those it carries (`carried`). `indexing`: as `render`'s.
    public static func links(_ metadata: PostMetadata, body: PostBody, options: RenderOptions,
                             indexing: SharedParse? = nil) throws(ToolError) -> [String] {
        var text = options
        text.format = .text
        let renderer = BodyRenderer(options: text, sink: { _ in })
        try renderBody(body, into: renderer, indexing: indexing)
        renderer.numberAlso(carried(metadata))
        renderer.finish()
        return renderer.links
    }

    /// The body and its numbered links as a screen shows them under its own header: one
    /// rendering gives both (the massive post is not laid out twice). The text goes to `sink`
    /// as it is laid out (the screen spools it to a file), never held whole.
    public static func renderBodyAndLinks(_ metadata: PostMetadata, body: PostBody, options: RenderOptions, indexing: SharedParse? = nil,
                                          sink: @escaping ([UInt8]) -> Void) throws(ToolError) -> [String] {
        let renderer = BodyRenderer(options: options, sink: sink)
        try renderBody(body, into: renderer, indexing: indexing)
        renderer.numberAlso(carried(metadata))
        renderer.appendLinkList()
        renderer.finish()
        return renderer.links
    }

    /// The body alone, as the golden tests check it.
    public static func renderBody(_ body: [UInt8], options: RenderOptions) throws(ToolError) -> [UInt8] {
        let renderer = BodyRenderer(options: options)
        try renderBody(body, into: renderer)
        renderer.appendLinkList()
        return renderer.output
    }

    static func renderBody(_ body: [UInt8], into renderer: BodyRenderer) throws(ToolError) {
        try renderBody(PostBody.bytes(body), into: renderer)
    }

    /// HTML is parsed as it is decompressed; whether the body is HTML at all is decided on its
    /// first piece (plain-text bodies are small and read whole).
    /// `indexing`: the search index's renderer gets every event too, and is told when the
    /// parse reached the end.
    static func renderBody(_ body: PostBody, into renderer: BodyRenderer, indexing: SharedParse? = nil) throws(ToolError) {
        var isHTML: Bool?
        var plain: [UInt8] = []
        let also = indexing?.renderer
        try renderer.renderHTML(also: also) { parse in
            body.stream { piece in
                if isHTML == nil { isHTML = looksLikeHTML(Array(piece.prefix(1 << 16))) }
                if isHTML == true { parse(piece) } else { plain.append(contentsOf: piece) }
            }
        }
        if isHTML != true {
            renderer.renderPlainText(plain)
            also?.renderPlainText(plain)
        }
        indexing?.reachedEnd = true
    }

    /// "By Ada Lovelace, Analyst · 2018-08-23 10:15"; with no author (many feed entries), the
    /// date alone.
    public static func byline(_ metadata: PostMetadata) -> String {
        let who = [metadata.author.name, metadata.author.title].filter { !$0.isEmpty }.joined(separator: ", ")
        return (who.isEmpty ? "" : "By " + who + " · ") + DateDisplay.human(metadata.publishDate)
    }

    /// A tag is `<` followed by a letter, `/`, `!` or `?`; a body without one is plain text.
    static func looksLikeHTML(_ body: [UInt8]) -> Bool {
        var index = 0
        while let position = body[index...].firstIndex(of: UInt8(ascii: "<")) {
            let next = position + 1
            guard next < body.count else { return false }
            let byte = body[next]
            if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") { return true }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") { return true }
            index = next
        }
        return false
    }

    /// The HTML as it came, minus what a terminal would obey (ESC, C1 controls).
    /// The HTML as it is, cleaned piece by piece as it is decompressed (never whole in
    /// memory); a UTF-8 sequence split between two pieces waits for the rest.
    static func streamSanitizedHTML(_ body: PostBody, sink: ([UInt8]) -> Void) {
        var pending: [UInt8] = []
        var endsWithNewline = true
        func emit(_ bytes: ArraySlice<UInt8>) {
            let text = Terminal.sanitize(String(decoding: bytes, as: UTF8.self))
            guard let last = text.utf8.last else { return }
            endsWithNewline = last == 0x0A
            sink(Array(text.utf8))
        }
        body.stream { piece in
            pending.append(contentsOf: piece)
            let cut = UTF8Cut.completePrefix(pending)
            emit(pending[..<cut])
            pending.removeFirst(cut)
        }
        emit(pending[...])
        if !endsWithNewline { sink([0x0A]) }
    }
}

extension LinkResolver {
    /// For a post's body: a feed entry's links against its base (`xml:base`, else the feed's
    /// URL); an API post's against `/post/ID` on `server`.
    public init(for metadata: PostMetadata, server: ServerURL?) {
        if let base = metadata.base { self.init(document: base) } else { self.init(postId: metadata.postId, server: server) }
    }
}
