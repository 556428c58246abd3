import FoundationEssentials
import Testing
@testable import DevsyncKit
import ToolboxKit

@Suite struct DeviceImportTests {
    static let known: Set<String> = ["A-1", "B-2", "C-3"]

    func problems(_ text: String) -> [String] {
        if case .failure(let problems) = DeviceImport.check(text, knownIDs: Self.known) { return problems.all.map(\.description) }
        return []
    }

    @Test func goodRowsWithExtraColumnsAndBlankLines() throws {
        let text = "state,id,installationDate,note\nsynced,A-1,2024-01-02T03:04:05Z,x\n\npending,B-2,,\"a, b\"\n"
        let rows = try DeviceImport.check(text, knownIDs: Self.known).get()
        #expect(rows == [DeviceImport.Row(id: "A-1", installationDate: try DateInput.parse("2024-01-02T03:04:05Z")),
                         DeviceImport.Row(id: "B-2", installationDate: nil)])
    }

    @Test func everyBadRowIsReportedWithLineAndColumn() {
        let text = "id,installationDate\nA-1,someday\nZ-9,\nA-1,2024-01-02T03:04:05Z\n,\nB-2\n"
        #expect(problems(text) == [
            #"line 2, column 5: invalid date "someday": use \#(DateInput.forms)"#,
            #"line 3, column 1: unknown device "Z-9"; devsync pull refreshes the list"#,
            #"line 4, column 1: duplicate id "A-1" (first on line 2)"#,
            "line 5, column 1: no device id",
            "line 6, column 1: 1 fields where the header has 2",
        ])
    }

    @Test func aFileWithoutTheColumnsOrAtAllIsRefused() {
        #expect(problems("") == ["line 1, column 1: empty file: the first line must name the columns id and installationDate"])
        #expect(problems("id,date\nA-1,\n") == ["line 1, column 1: the header must name the columns id and installationDate"])
        #expect(problems("id,installationDate\n\"A-1,\n") == ["line 3, column 1: a quoted field is not closed"])
    }

    @Test func recordAllIsAllOrNothing() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(throws: ToolError.self) {
            try store.recordAll([("WWM-0001-12", date), ("NOPE", nil), ("CWM-0012-62", nil)])
        }
        #expect(try store.pending().isEmpty)
        try store.recordAll([("WWM-0001-12", date), ("CWM-0012-62", nil)])
        #expect(try store.pending().map(\.id) == ["WWM-0001-12", "CWM-0012-62"])
    }

    @Test func recordAllReplacesAsRecordDoesLaterWinningAndRevisionsGrowing() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try store.record("HEA-8127-29", installationDate: nil)
        try store.recordAll([("CWM-0012-62", nil), ("HEA-8127-29", date), ("CWM-0012-62", date)])
        let pending = try store.pending()
        #expect(pending.map(\.id) == ["HEA-8127-29", "CWM-0012-62"])
        #expect(pending.map { $0.change?.installationDate } == [date, date])
        #expect(pending.map { $0.change?.revision } == [2, 1])
    }

    @Test func exportReadsBackThroughImport() throws {
        let store = try temporaryStore()
        try store.replaceServerCopy(seed)
        try store.record("CWM-0012-62", installationDate: Date(timeIntervalSince1970: 1_700_000_000))
        let devices = try store.devices()
        let text = ([DeviceExport.header] + devices.map { DeviceExport.fields($0) }).map(CSV.format).joined(separator: "\n") + "\n"
        let rows = try DeviceImport.check(text, knownIDs: try store.deviceIDs()).get()
        #expect(rows.map(\.id) == devices.map(\.id))
        #expect(rows.map(\.installationDate) == devices.map(\.installationDate))
    }

    /// Ids and descriptions as a hostile server may send them: quotes before combining marks,
    /// canonically equivalent ids, spaces around, controls, formula starts, BOMs, newlines.
    static let hostileIDs = ["é", "e\u{301}", " padded ", "a\"\u{301}b", "=cmd|' /C calc'!A0", "+1", "-1", "@SUM(A1)",
                             "\tTab", "\r=1+1", "'quoted", "\u{FEFF}bom", "line\nbreak", "comma,here", "\u{202E}rtl", "ctl\u{1B}[31m", "A", "a"]

    @Test func exportImportRoundTripsEveryIDAServerCanSend() throws {
        // Seeded property test: random ids built from the hostile pieces above.
        var random = SeededGenerator(seed: 29)
        var ids = Self.hostileIDs
        for _ in 0..<300 {
            var id = ""
            for _ in 0..<Int.random(in: 1...4, using: &random) { id += Self.hostileIDs.randomElement(using: &random)! }
            ids.append(id)
        }
        // Distinct by bytes (Swift's == would merge canonically equivalent ones).
        var seenBytes = Set<[UInt8]>()
        ids = ids.filter { seenBytes.insert(Array($0.utf8)).inserted }
        let devices = ids.enumerated().map { index, id in
            Device(id: id, type: .heating, meterPointDescription: ids[(index + 1) % ids.count],
                   serverDate: index % 3 == 0 ? nil : Date(timeIntervalSince1970: Double(1_700_000_000 + index * 60)), change: nil)
        }
        let text = ([DeviceExport.header] + devices.map { DeviceExport.fields($0) }).map(CSV.format).joined(separator: "\r\n") + "\r\n"
        let rows = try DeviceImport.check(text, knownIDs: ids).get()
        #expect(rows.map { Array($0.id.utf8) } == ids.map { Array($0.utf8) })
        #expect(rows.map(\.installationDate) == devices.map(\.installationDate))
        let records = try CSV.parse(text)
        #expect(zip(records.dropFirst(), devices).allSatisfy { DeviceExport.imported($0.fields[4]).utf8.elementsEqual($1.meterPointDescription.utf8) })
    }

    @Test func exportedCellsNeverStartAFormula() {
        for start in ["=", "+", "-", "@", "\t", "\r", "'"] {
            let device = Device(id: start + "x", type: .heating, meterPointDescription: start + "SUM(A1)", serverDate: nil, change: nil)
            // On a terminal a CR is removed (sanitised) rather than kept: see below.
            for forTerminal in start == "\r" ? [false] : [false, true] {
                let fields = DeviceExport.fields(device, forTerminal: forTerminal)
                #expect(fields[0].hasPrefix("'") && fields[4].hasPrefix("'"), "\(fields)")
            }
        }
        // On a terminal the CR is removed first; the = it uncovers is still neutralised.
        let crlf = Device(id: "x", type: .heating, meterPointDescription: "\r=1+1", serverDate: nil, change: nil)
        #expect(DeviceExport.fields(crlf, forTerminal: true)[4] == "'=1+1")
        #expect(DeviceExport.fields(crlf)[4] == "'\r=1+1")
    }

    @Test func aQuoteBeforeACombiningMarkIsStillDoubled() throws {
        let field = "say \"\u{301}hi\""
        let line = CSV.format(["id", field])
        #expect(try CSV.parse(line + "\n").first?.fields.last.map { Array($0.utf8) } == Array(field.utf8))
    }

    /// Canonically equivalent ids are two devices everywhere: import, recordAll, pull.
    @Test func canonicallyEquivalentIDsStayTwoDevices() throws {
        let store = try temporaryStore()
        let ids = ["\u{E9}", "e\u{301}"]
        try store.replaceServerCopy(ids.map { ServerDevice(id: $0, installationDate: nil, meterPointDescription: $0, type: .heating) })
        #expect(try store.deviceIDs().count == 2)
        let text = "id,installationDate\n\u{E9},2024-10-01T09:00:00Z\ne\u{301},2024-10-02T09:00:00Z\n"
        let rows = try DeviceImport.check(text, knownIDs: try store.deviceIDs()).get()
        #expect(rows.map { Array($0.id.utf8) } == ids.map { Array($0.utf8) })
        try store.recordAll(rows.map { ($0.id, $0.installationDate) })
        let pending = try store.pending()
        #expect(pending.count == 2, "\(pending.map(\.id))")
        // A pull that changes both server dates logs a conflict for each, not one merged entry.
        let conflicts = try store.replaceServerCopy(ids.map {
            ServerDevice(id: $0, installationDate: Date(timeIntervalSince1970: 1_000), meterPointDescription: $0, type: .heating)
        })
        #expect(conflicts.count == 2)
    }
}

/// Issue 29: a value echoed in an error is cut, whatever its size or source.
@Suite struct EchoedValueTests {
    @Test func aHugeDateIsQuotedCutNotEchoedWhole() {
        let huge = String(repeating: "9", count: 100_000)
        do {
            _ = try DateInput.parse(huge)
            Issue.record("a 100 KB date was accepted")
        } catch {
            #expect(error.message.utf8.count < 300, "\(error.message.utf8.count) bytes")
        }
        // In an import too: a 1 MB date field gives a short line.
        let text = "id,installationDate\nA-1," + String(repeating: "x", count: 1 << 20) + "\n"
        guard case .failure(let problems) = DeviceImport.check(text, knownIDs: ["A-1"]) else {
            Issue.record("a garbage date was accepted")
            return
        }
        #expect(problems.all.allSatisfy { $0.description.utf8.count < 300 })
    }

    @Test func noMessageLineIsLongerThanTheLimit() {
        let line = StandardError.bytes(of: "tool: " + String(repeating: "é", count: 50_000))
        #expect(String(decoding: line, as: UTF8.self).count <= StandardError.lineLimit + 2)
        #expect(line.last == 0x0A)
    }
}
