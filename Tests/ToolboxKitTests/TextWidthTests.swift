import Glibc
import Testing
@testable import CoreKit
@testable import ToolboxKit

/// Issue 46: display width is the C library's, code point by code point (8,300 code points
/// were one column where glibc, tmux and the terminal draw two: ⌚ ♈ ⚡ ✅ ⭐ 🀄), and a
/// cluster is measured as tmux draws it.
@Suite struct TextWidthTests {
    @Test func everyCodePointIsAsWideAsTheCLibrarySays() throws {
        // wcwidth sits behind _XOPEN_SOURCE in the Glibc module: looked up by name.
        let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "wcwidth"))
        let wcwidth = unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
        let utf8 = try #require(newlocale(LC_CTYPE_MASK, "C.UTF-8", nil))
        defer { freelocale(utf8) }
        let previous = uselocale(utf8)
        defer { uselocale(previous) }
        var differing: [UInt32] = []
        for value in UInt32(0x20)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), !Terminal.isControl(scalar) else { continue }
            let expected = max(Int(wcwidth(Int32(bitPattern: value))), -1)
            let measured = TextWidth.width(scalar)
            // wcwidth says -1 for what it does not know; it is drawn as one replacement column.
            if measured != (expected == -1 ? 1 : expected) { differing.append(value) }
        }
        #expect(differing.isEmpty, "\(differing.count) code points differ from glibc, first \(differing.prefix(5).map { String($0, radix: 16) }); run scripts/width-table.sh")
    }

    /// Issue 47: under a locale that shows only ASCII, each other character (a whole cluster:
    /// a family, a flag, a wide ideograph, a letter with its mark) is one `?` in one cell.
    @Test func anASCIILocaleShowsOneQuestionMarkACharacter() {
        let text = "a👨‍👩‍👧b日🇫🇷e\u{301}1️⃣"
        #expect(TextWidth.of(text, asciiOnly: true) == 7)
        #expect(TextWidth.shownInASCII(text) == "a?b????")
        #expect(TextWidth.of(TextWidth.shownInASCII(text), asciiOnly: false) == 7)
        #expect(TextWidth.of(Character("日"), asciiOnly: true) == 1 && TextWidth.of(Character("日"), asciiOnly: false) == 2)
    }

    @Test func clustersAreMeasuredAsTmuxDrawsThem() {
        // Measured with tmux 3.3a's cursor after printing each (see the notes).
        let drawn: [(String, Int)] = [
            ("👨\u{200D}👩\u{200D}👧", 2), ("🇫🇷", 2), ("❤\u{FE0F}", 1), ("1\u{FE0F}\u{20E3}", 1), ("e\u{30A}", 1),
            ("⌚", 2), ("⚡", 2), ("👍🏽", 4), ("🏳\u{FE0F}\u{200D}🌈", 1), ("a\u{200D}b", 2), ("가", 2), ("〿", 1), ("🌡", 1),
        ]
        for (text, columns) in drawn {
            #expect(TextWidth.of(text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
