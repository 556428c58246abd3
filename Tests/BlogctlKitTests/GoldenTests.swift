import Foundation
import Testing
@testable import BlogctlKit
@testable import BlogctlEngines

/// One golden file per HTML element the renderer handles: `NAME.html` renders to `NAME.txt`
/// (text, 60 columns, no terminal attributes), `NAME.md` (Markdown), and for some `NAME.tty`
/// (bold and underline as on a terminal). BLOGCTL_UPDATE_GOLDEN=1 rewrites them; review the diff.
@Suite struct GoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").path
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".html") }.map { String($0.dropLast(5)) }.sorted()
    static let styled: Set<String> = ["emphasis", "headings", "table"]
    static let links = LinkResolver(document: "http://blog.test/post/1")

    static func check(_ name: String, _ suffix: String, _ options: RenderOptions) throws {
        let html = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name + ".html")))
        let rendered = String(decoding: try PostPage.renderBody(html, options: options), as: UTF8.self)
        let expectedPath = folder + "/" + name + suffix
        if ProcessInfo.processInfo.environment["BLOGCTL_UPDATE_GOLDEN"] == "1" {
            try rendered.write(toFile: expectedPath, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
        #expect(rendered == expected, "\(name)\(suffix) differs from its golden file")
    }

    @Test func thereIsAGoldenFileForEveryElement() {
        for required in ["paragraph", "headings", "emphasis", "links", "unordered-list", "ordered-list", "blockquote",
                         "preformatted", "table", "image", "entities", "dropped", "plain-text", "line-break-and-rule",
                         "definition-list", "malformed", "hostile-controls", "bidi-controls"] {
            #expect(Self.names.contains(required), "no golden file for \(required)")
        }
    }

    @Test(arguments: GoldenTests.names) func text(_ name: String) throws {
        try Self.check(name, ".txt", RenderOptions(format: .text, width: 60, styled: false, links: Self.links))
    }

    @Test(arguments: GoldenTests.names) func markdown(_ name: String) throws {
        try Self.check(name, ".md", RenderOptions(format: .markdown, width: 60, styled: false, links: Self.links))
    }

    @Test(arguments: Array(GoldenTests.styled)) func terminal(_ name: String) throws {
        try Self.check(name, ".tty", RenderOptions(format: .text, width: 60, styled: true, links: Self.links))
    }
}
