import Testing
@testable import CondtestKit

@Suite struct ByteKeyTableTests {
    final class Box { let name: String; init(_ name: String) { self.name = name } }

    func lookup(_ table: ByteKeyTable<Box>, _ key: String) -> String? {
        Array(key.utf8).withUnsafeBufferPointer { table.value(for: $0)?.name }
    }

    @Test func keysThatShareTheSampledBytesAreStillToldApart() {
        // 40-byte keys differing only at byte 10, which none of the three samples reads.
        let keys = (0..<200).map { "=eq(arg1, " + String(format4($0)) + String(repeating: "x", count: 26) }
        #expect(keys.allSatisfy { $0.utf8.count == 40 })
        let hashes = Set(keys.map { Array($0.utf8).withUnsafeBufferPointer { ByteKeyTable<Box>.hash($0) } })
        #expect(hashes.count < keys.count)  // they do collide
        var table = ByteKeyTable<Box>()
        for key in keys { table.insert(Box(key), for: Array(key.utf8)) }
        #expect(table.count == keys.count)
        for key in keys { #expect(lookup(table, key) == key) }
        #expect(lookup(table, "=eq(arg1, zzzz" + String(repeating: "x", count: 26)) == nil)
    }

    @Test func shortEmptyAndLongKeysAcrossGrowth() {
        var table = ByteKeyTable<Box>()
        let keys = [""] + (1...300).map { String(repeating: "k", count: $0) } + ["a", "b", "ab", "ba", "=x"]
        for key in keys { table.insert(Box(key), for: Array(key.utf8)) }
        for key in keys { #expect(lookup(table, key) == key) }
        #expect(lookup(table, "c") == nil)
        // Inserting a key again replaces its value.
        table.insert(Box("again"), for: Array("ab".utf8))
        #expect(lookup(table, "ab") == "again" && table.count == keys.count)
    }

    func format4(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
