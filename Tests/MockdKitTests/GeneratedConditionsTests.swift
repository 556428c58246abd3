import FoundationEssentials
import Testing
import ToolboxKit
@testable import MockdKit

@Suite struct GeneratedConditionsTests {
    static func text(_ records: [GeneratedConditions.Record]) -> String {
        String(decoding: JSONCoding.encode(records), as: UTF8.self)
    }

    @Test func theSameSeedGivesTheSameConditionsAndAnotherOthers() {
        #expect(Self.text(GeneratedConditions.records(count: 50, seed: 7)) == Self.text(GeneratedConditions.records(count: 50, seed: 7)))
        #expect(Self.text(GeneratedConditions.records(count: 50, seed: 7)) != Self.text(GeneratedConditions.records(count: 50, seed: 8)))
    }

    @Test func everyOperatorAppearsAndEachTakesOneToThreeArguments() {
        let records = GeneratedConditions.records(count: 20, seed: 1)
        let text = Self.text(records)
        for op in GeneratedConditions.valueOperators + ["and", "or", "not"] {
            #expect(text.contains("\"op\":\"\(op)\""), "\(op)")
        }
        for (index, record) in records.enumerated() {
            let json = Self.text([record])
            let highest = (1...3).last { json.contains("\"argumentNumber\":\($0)") }
            #expect(highest == 1 + index % 3, "\(json)")
        }
        #expect(Set(records.map(\._id)).count == 20)
        #expect(records.allSatisfy { $0._id.count == 24 })
    }
}
