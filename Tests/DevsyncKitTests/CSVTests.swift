import Testing
@testable import DevsyncKit

@Suite struct CSVTests {
    func fields(_ text: String) throws -> [[String]] { try CSV.parse(text).map(\.fields) }

    @Test func plainQuotedAndEmptyFields() throws {
        #expect(try fields("id,installationDate\nA,2024-01-02T03:04:05Z\nB,\n") == [["id", "installationDate"], ["A", "2024-01-02T03:04:05Z"], ["B", ""]])
        #expect(try fields(#""a,b","say ""hi""",,"line1"# + "\n" + #"line2""# + "\n") == [["a,b", "say \"hi\"", "", "line1\nline2"]])
        #expect(try fields("\"\"\n") == [[""]])
    }

    @Test func byteOrderMarkCRLFAndNoFinalNewline() throws {
        #expect(try fields("\u{FEFF}id,x\r\nA,1\r\nB,2") == [["id", "x"], ["A", "1"], ["B", "2"]])
        #expect(try CSV.parse("id\r\nA\r\n").map(\.line) == [1, 2])
    }

    @Test func linesAndColumnsOfFieldsAndErrors() throws {
        let records = try CSV.parse("a,bb,c\n\"x\ny\",z\nlast,one\n")
        #expect(records.map(\.line) == [1, 2, 4])
        #expect(records[0].columns == [1, 3, 6])
        #expect(records[2].columns == [1, 6])
        // Issue 29: a field after a quoted line break starts on the later line, at its column there.
        #expect(records[1].lines == [2, 3] && records[1].columns == [1, 4])
        #expect(records[0].lines == [1, 1, 1])
        #expect(throws: CSV.ParseError(line: 2, column: 4, problem: "text after a closing quote (a quote inside a quoted field is written \"\")")) {
            try CSV.parse("a,b\n\"x\"y,z\n")
        }
        #expect(throws: CSV.ParseError.self) { try CSV.parse("a,b\"c\n") }
        #expect(throws: CSV.ParseError.self) { try CSV.parse("a,\"open\n") }
    }

    @Test func formatRoundTrips() throws {
        let rows = [["id", "installationDate"], ["A,1", "say \"hi\""], ["", "two\nlines"], ["plain", ""]]
        let text = rows.map(CSV.format).joined(separator: "\n") + "\n"
        #expect(try fields(text) == rows)
        #expect(CSV.format(["a", "b,c", "d\"e"]) == #"a,"b,c","d""e""#)
    }

    @Test func tenThousandRows() throws {
        var text = "id,installationDate\n"
        for index in 0..<10_000 { text += "GEN-\(index),2024-01-02T03:04:05Z\n" }
        let records = try CSV.parse(text)
        #expect(records.count == 10_001)
        #expect(records.last?.fields == ["GEN-9999", "2024-01-02T03:04:05Z"])
        #expect(records.last?.line == 10_001)
    }
}
