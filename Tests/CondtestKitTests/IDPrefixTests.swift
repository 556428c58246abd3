import Testing
@testable import CondtestKit
import ToolboxKit

/// `condtest show 5b8f` as git takes a short hash: the one id a prefix begins, else which.
@Suite struct IDPrefixTests {
    let ids = ["5b8f1c3e9d1a4c0012a3b001", "5b8f1c3e9d1a4c0012a3b002", "61aa00000000000000000001"]

    @Test func aUniquePrefixNamesItsCondition() throws {
        #expect(try IDPrefix.resolve("61", among: ids) == "61aa00000000000000000001")
        #expect(try IDPrefix.resolve("5b8f1c3e9d1a4c0012a3b002", among: ids + ["5b8f1c3e9d1a4c0012a3b0021"]) == "5b8f1c3e9d1a4c0012a3b0021")
    }

    @Test func anAmbiguousPrefixListsTheCandidates() {
        #expect(throws: ToolError.usage("ambiguous id \"5b8f\": 2 conditions start with it (5b8f1c3e9d1a4c0012a3b001, 5b8f1c3e9d1a4c0012a3b002)")) {
            try IDPrefix.resolve("5b8f", among: ids)
        }
    }

    @Test func aMissSuggestsTheNearestIds() {
        #expect(throws: ToolError.missing("no condition \"5b8f1c3e9d1a4c0012a3b0ff\"; did you mean 5b8f1c3e9d1a4c0012a3b001, 5b8f1c3e9d1a4c0012a3b002?")) {
            try IDPrefix.resolve("5b8f1c3e9d1a4c0012a3b0ff", among: ids)
        }
        #expect(throws: ToolError.missing("no condition \"zz\"; condtest list shows them")) { try IDPrefix.resolve("zz", among: ids) }
    }
}
