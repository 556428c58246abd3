import Glibc
import Testing
@testable import CoreKit
@testable import ToolboxKit

@Suite struct TerminalTests {
    @Test func sanitizeRemovesEscapeCSIAndDelete() {
        let hostile = "ti\u{1B}[31mtle\u{9B}2J\u{7F}end\u{07}\u{0D}"
        #expect(Terminal.sanitize(hostile) == "ti[31mtle2Jend")
    }

    @Test func sanitizeKeepsTabsNewlinesAndLetters() {
        let text = "a\tb\nc é ü 日本語 🙂"
        #expect(Terminal.sanitize(text) == text)
    }

    @Test func sanitizeRemovesEveryC0AndC1ControlButTabAndNewline() {
        var scalars = String.UnicodeScalarView()
        for value in UInt32(0)...0x9F { scalars.append(Unicode.Scalar(value)!) }
        let cleaned = Terminal.sanitize(String(scalars))
        let expected = "\t\n" + String(String.UnicodeScalarView((0x20...0x7E).map { Unicode.Scalar(UInt32($0))! }))
        #expect(cleaned == expected)
    }

    @Test func sanitizeFieldFlattensTabsAndNewlines() {
        #expect(Terminal.sanitizeField("a\tb\nc\u{1B}") == "a b c")
    }

    /// Printable ASCII takes a short way out: each byte alone and all together come back as
    /// they are, and one control or bidi mark anywhere still takes the long way.
    @Test func sanitizeFieldKeepsPrintableASCIIAndCleansAnythingElse() {
        let printable = String(String.UnicodeScalarView((0x20...0x7E).map { Unicode.Scalar(UInt32($0))! }))
        #expect(Terminal.sanitizeField(printable) == printable)
        for scalar in printable.unicodeScalars { #expect(Terminal.sanitizeField(String(scalar)) == String(scalar)) }
        #expect(Terminal.sanitizeField("ab\u{7F}c") == "abc")
        #expect(Terminal.sanitizeField("ab\u{202E}c") == "ab<U+202E>c")
        #expect(Terminal.sanitizeField("ab\u{9B}c") == "abc")
    }

    /// Trimming ends as Characters do, whatever the ends are (the short way takes two
    /// printable ASCII ends only): random text of spaces, tabs, marks and letters.
    @Test func trimmingSpacesIsTrimmingWhitespaceCharacters() {
        var generator = SeededGenerator(seed: 46_2)
        let alphabet = [" ", "\t", "\n", "a", "~", "\u{0301}", "\u{A0}", "\u{0600}", "\u{2003}", "東"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            var view = Substring(text)
            while let first = view.first, first.isWhitespace { view.removeFirst() }
            while let last = view.last, last.isWhitespace { view.removeLast() }
            #expect(Array(text.trimmingSpaces().utf8) == Array(String(view).utf8), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func colorNeedsATerminalAndNoNOCOLOR() throws {
        // File descriptor -1 is never a terminal.
        #expect(Terminal.colorEnabled(-1, environment: ["TERM": "xterm"]) == false)
        // A real terminal: the other side of a pseudo-terminal.
        // (posix_openpt and friends are not in Swift's Glibc module: /dev/ptmx and its ioctls.)
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: CInt = 0
        var number: CInt = 0
        try #require(ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0)
        try #require(ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0)
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { close(terminal) }
        #expect(Terminal.colorEnabled(terminal, environment: ["TERM": "xterm"]) == true)
        #expect(Terminal.colorEnabled(terminal, environment: ["TERM": "xterm", "NO_COLOR": "1"]) == false)
        #expect(Terminal.colorEnabled(terminal, environment: ["TERM": "xterm", "NO_COLOR": ""]) == true)
        #expect(Terminal.colorEnabled(terminal, environment: ["TERM": "dumb"]) == false)
    }

    @Test func widthFallsBackToCOLUMNSThenEighty() {
        #expect(Terminal.width(-1, environment: ["COLUMNS": "132"]) == 132)
        #expect(Terminal.width(-1, environment: ["COLUMNS": "nope"]) == 80)
        #expect(Terminal.width(-1, environment: [:]) == 80)
    }
}
