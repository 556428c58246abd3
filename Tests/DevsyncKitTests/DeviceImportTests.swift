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
        let text = "id,installationDate\nA-1,yesterday\nZ-9,\nA-1,2024-01-02T03:04:05Z\n,\nB-2\n"
        #expect(problems(text) == [
            #"line 2, column 5: invalid date "yesterday": use ISO 8601 (2024-03-04T09:15:00Z) or YYYY-MM-DD HH:MM (local time)"#,
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
        let text = ([DeviceExport.header] + devices.map(DeviceExport.fields)).map(CSV.format).joined(separator: "\n") + "\n"
        let rows = try DeviceImport.check(text, knownIDs: try store.deviceIDs()).get()
        #expect(rows.map(\.id) == devices.map(\.id))
        #expect(rows.map(\.installationDate) == devices.map(\.installationDate))
    }
}
