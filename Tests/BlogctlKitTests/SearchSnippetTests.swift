import Testing
@testable import BlogctlKit

/// A search hit on a terminal: the words around the first match, centred, from the field that
/// matched, which is named.
@Suite struct SearchSnippetTests {
    let marks = ("[", "]")

    @Test func theFirstMatchingFieldIsNamedAndItsMatchCentred() throws {
        let body = String(repeating: "filler words here ", count: 20) + "the [loom] weaves " + String(repeating: "more text after ", count: 20)
        let found = try #require(SearchSnippet.centred([body, "a summary", "Ada", "Notes"], marks: marks, radius: 20))
        #expect(found.field == "body")
        #expect(found.text.hasPrefix("…") && found.text.hasSuffix("…"))
        let before = found.text.split(separator: "[")[0].count
        let after = found.text.split(separator: "]")[1].count
        #expect(abs(before - after) <= 12, "\(found.text)")
        #expect(found.text.contains("the [loom] weaves"))
    }

    @Test func shortFieldsAreWholeAndTheOrderIsBodySummaryAuthorTitle() {
        #expect(SearchSnippet.centred(["no match", "the [engine]", "[Ada]", "[Engine] notes"], marks: marks)! == ("summary", "the [engine]"))
        #expect(SearchSnippet.centred(["", "", "Grace [Hopper]", "A Bug"], marks: marks)! == ("author", "Grace [Hopper]"))
        // Issue 47: a title match shows the summary's start, not the title a second time.
        #expect(SearchSnippet.centred(["", "How the first bug was found", "Grace", "The [Moth]"], marks: marks)!
                == ("summary", "How the first bug was found"))
        #expect(SearchSnippet.centred(["", "", "Grace", "The [Moth]"], marks: marks)! == ("title", "The [Moth]"))
        #expect(SearchSnippet.centred(["", "", "", ""], marks: marks) == nil)
    }

    @Test func aMarkCutInHalfIsClosed() {
        let body = "x [" + String(repeating: "a", count: 200) + "] y"
        let found = SearchSnippet.centred([body, "", "", ""], marks: marks, radius: 10)!
        #expect(found.text.filter { $0 == "[" }.count == found.text.filter { $0 == "]" }.count)
    }
}
