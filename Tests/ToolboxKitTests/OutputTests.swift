import Testing
@testable import CoreKit
@testable import ToolboxKit

@Suite struct OutputTests {
    let table = Table(columns: ["ID", "NAME"], rows: [["1", "short"], ["22", "a\tname\nwith \u{1B}[2Jcontrols"]])

    @Test func tsvHasNoHeaderAndOneLinePerRow() {
        #expect(table.tsv() == "1\tshort\n22\ta name with [2Jcontrols\n")
    }

    @Test func alignedTableHasAHeaderAndPaddedColumns() {
        let text = table.aligned(width: 80, bold: false)
        #expect(text == "ID  NAME\n1   short\n22  a name with [2Jcontrols\n")
    }

    @Test func lastColumnIsCutToTheWidth() {
        let text = table.aligned(width: 12, bold: false)
        #expect(text.split(separator: "\n")[2] == "22  a name …")
    }

    @Test func modeFollowsTheTerminalAndJSONFlag() {
        #expect(OutputMode(json: true, stdoutIsTTY: true) == .json)
        #expect(OutputMode(json: false, stdoutIsTTY: true) == .table)
        #expect(OutputMode(json: false, stdoutIsTTY: false) == .tsv)
    }

    @Test func wideCharactersTakeTwoColumns() {
        #expect(TextWidth.of("日本") == 4)
        #expect(TextWidth.of("e\u{301}") == 1)
        #expect(TextWidth.pad("日", to: 4) == "日  ")
    }

    @Test func progressBytesInSIUnits() {
        #expect(ProgressDisplay.bytes(512) == "512 B")
        #expect(ProgressDisplay.bytes(8_000_000) == "8.0 MB")
        #expect(ProgressDisplay.bytes(1_530) == "1.5 kB")
    }
}

@Suite struct FieldListTests {
    @Test func alignedOnATerminalTabbedInAPipe() {
        let fields = [("name", "Zoë\tx"), ("arguments", "2")]
        #expect(FieldList.render(fields, .table) == "name:      Zoë x\narguments: 2\n")
        #expect(FieldList.render(fields, .tsv) == "name\tZoë x\narguments\t2\n")
    }
}

/// Issue 28: a table never wraps a row; the columns that may give way do, in their order.
@Suite struct TableFitTests {
    let table = Table(columns: ["ID", "DATE", "NOTE", "TITLE"],
                      fits: [.shrink(order: 2, minimum: 8, middle: true), .keep, .shrink(order: 0, minimum: 0), .shrink(order: 1, minimum: 6)],
                      rows: [["GEN-000001-00", "2024-10-01 09:15", "a note that says a lot", "A title of some length"]])

    func lines(_ width: Int) -> [String] {
        table.aligned(width: width, bold: false).split(separator: "\n").map(String.init)
    }

    @Test func wideEnoughNothingGivesWay() {
        #expect(lines(200)[1] == "GEN-000001-00  2024-10-01 09:15  a note that says a lot  A title of some length")
    }

    @Test func theColumnsGiveWayInTheirOrder() {
        // 80: only the note shrinks.
        #expect(lines(80).allSatisfy { TextWidth.of($0) <= 80 })
        #expect(lines(80)[1].hasPrefix("GEN-000001-00  2024-10-01 09:15  a note that"))
        #expect(lines(80)[1].hasSuffix("  A title of some length"))
        // 50: the note is gone (no room to say anything), the title is cut at its end.
        #expect(lines(50)[0] == "ID             DATE              TITLE")
        #expect(lines(50)[1] == "GEN-000001-00  2024-10-01 09:15  A title of some …")
        // 36: the id gives way in its middle; the date keeps its text.
        #expect(lines(36)[1] == "GEN-0…1-00  2024-10-01 09:15  A tit…")
        for width in 30...200 { #expect(lines(width).allSatisfy { TextWidth.of($0) <= width }, "\(width)") }
    }

    @Test func elidingTheMiddleKeepsBothEnds() {
        #expect(TextWidth.elideMiddle("https://example.com/a/very/long/path", to: 20) == "https://ex…long/path")
        #expect(TextWidth.elideMiddle("short", to: 20) == "short")
        #expect(TextWidth.elideMiddle("日本語のテキストです", to: 9) == "日本…です")
    }
}

/// Issue 37: table fitting as the outside fuzzing found it broken.
@Suite struct TableFittingFindingsTests {
    @Test func anEmptyKeptColumnTakesNoRoom() {
        let table = Table(columns: ["", "NAME"], rows: [["", "a long name that gives way"]], fits: [.keep, .shrink(order: 0, minimum: 4)])
        for line in table.aligned(width: 12, bold: false).split(separator: "\n") { #expect(TextWidth.of(String(line)) <= 12, "\(line)") }
    }

    @Test func keptColumnsKeepTheirTextWhileOthersCanGiveWay() {
        let table = Table(columns: ["ID", "TITLE", "RESULT"], rows: [["abcdefghij", "a title that is long", "true"]],
                          fits: [.keep, .shrink(order: 0, minimum: 12), .keep])
        let lines = table.aligned(width: 20, bold: false).split(separator: "\n")
        #expect(lines[1].hasPrefix("abcdefghij") && lines[1].hasSuffix("true"), "\(lines)")
        for line in lines { #expect(TextWidth.of(String(line)) <= 20, "\(line)") }
        // Kept columns wider than the terminal together: the line is cut at its edge.
        for line in table.aligned(width: 8, bold: false).split(separator: "\n") { #expect(TextWidth.of(String(line)) <= 8, "\(line)") }
    }
}

/// Issue 37: hosts compared by bytes.
@Suite struct NoProxyBytesTests {
    @Test func aHostStartingWithACombiningMarkMatchesItsOwnEntry() throws {
        #expect(ProxyChoice.matches(host: "\u{301}a.example", "\u{301}a.example"))
        #expect(ProxyChoice.matches(host: "x.\u{301}a.example", "\u{301}a.example"))
        #expect(!ProxyChoice.matches(host: "\u{E9}a", "e\u{301}a"))
        #expect(try ServerURL("http://a/\u{301}x").host == "a")
        #expect(try ServerURL("http://a:81/\u{301}x").port == 81)
    }
}
