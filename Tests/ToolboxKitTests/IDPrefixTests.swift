import Testing
@testable import CoreKit
@testable import ToolboxKit

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

    /// Issue 47: a table shows the shortest start that tells every id apart, seven characters
    /// at least, and each one shown resolves back to its id (a seeded property over ids that
    /// share long starts, ids that start others, and non-ASCII ids).
    @Test func whatATableShowsCanBeTypedBack() throws {
        #expect(IDPrefix.length(ids) == 24)
        #expect(IDPrefix.length(["5b8f1c3e9d1a4c00", "61aa0000", "7e57000"]) == 7)
        #expect(IDPrefix.shortened(["1", "2", "3"]) == ["1", "2", "3"])
        #expect(IDPrefix.shortened(["abc", "abcdefghij", "abcdefgxyz"]) == ["abc", "abcdefgh", "abcdefgx"])
        var random = SeededGenerator(seed: 47)
        let alphabet = Array("0123456789abcdéf")
        for _ in 0..<200 {
            let stem = String((0..<Int(random.next() % 12)).map { _ in alphabet[Int(random.next() % 16)] })
            let count = 1 + Int(random.next() % 40)
            let all = Array(Set((0..<count).map { _ in stem + String((0..<Int(random.next() % 10)).map { _ in alphabet[Int(random.next() % 16)] }) }))
            let shown = IDPrefix.shortened(all)
            #expect(Set(shown).count == all.count, "\(all)")
            for (id, short) in zip(all, shown) {
                #expect(short.unicodeScalars.count >= min(7, id.unicodeScalars.count))
                // Typed back: the id itself when it is whole, else the one id it starts.
                let back = short == id ? id : try IDPrefix.resolve(short, among: all.filter { $0 != short })
                #expect(back == id, "\(short) in \(all)")
            }
        }
    }
}
