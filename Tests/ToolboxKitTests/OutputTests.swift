import Testing
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
