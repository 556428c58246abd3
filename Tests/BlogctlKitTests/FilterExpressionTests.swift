import FoundationEssentials
import Testing
import ToolboxKit
@testable import BlogctlKit

/// Issue 65: newsboat's filter language, for `list --filter` and the urls file's query feeds.
@Suite struct FilterExpressionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    func subject(_ title: String, author: String = "Ada", days: Double? = 3, read: Bool = false, tags: [String] = [],
                 link: String? = "https://a.example/1", feed: String = "Alpha", flags: String = "") -> FilterSubject {
        let post = PostMetadata(id: "x", title: title, publishDate: days.map { Self.now.addingTimeInterval(-$0 * 86_400) }, postId: "x",
                                summary: "A summary about Swift", author: Author(name: author, image: "", title: ""), link: link)
        return FilterSubject(post: post, read: read, flags: flags, feedTitle: feed, feedURL: "https://a.example/feed", tags: tags, now: Self.now)
    }

    func keeps(_ text: String, _ subject: FilterSubject) throws -> Bool {
        FilterMatcher(try FilterExpression.parse(text)).matches(subject)
    }

    @Test func everyOperatorAndAttribute() throws {
        let swift = subject("Swift on Linux", tags: ["tech", "dev/video"], flags: "sq")
        let cases: [(String, Bool)] = [
            ("title = \"Swift on Linux\"", true), ("title = \"swift on linux\"", false), ("title != \"Other\"", true),
            ("title =~ \"^swift\"", true), ("title =~ \"linux$\"", true), ("title !~ \"rust\"", true), ("title =~ \"s(w|x)ift\"", true),
            ("tags # \"tech\"", true), ("tags # \"te\"", false), ("tags !# \"news\"", true), ("tags # \"dev/video\"", true),
            ("age < 7", true), ("age > 3", false), ("age >= 3", true), ("age <= 2", false), ("age between 1:5", true), ("age between 4:9", false),
            ("unread = \"yes\"", true), ("unread = no", false), ("author =~ \"ADA\"", true), ("content =~ \"swift\"", true),
            ("feedtitle = \"Alpha\"", true), ("feedurl =~ \"a\\\\.example\"", true), ("link = \"https://a.example/1\"", true),
            ("flags =~ \"s\"", true), ("flags =~ \"x\"", false), ("flags = \"sq\"", true), ("flags != \"\"", true),
            ("date = \"2027-01-12\"", true), ("date > \"2027-01-01\"", true), ("date between 2026-01-01:2026-12-31", false),
        ]
        for (text, expected) in cases { #expect(try keeps(text, swift) == expected, "\(text)") }
    }

    /// A long chain of `and`s and `or`s is a list, never a deep recursion; 64 parentheses
    /// deep still parse.
    @Test func longAndDeepExpressionsParse() throws {
        let chain = (0..<20_000).map { "age > \($0)" }.joined(separator: " or ")
        #expect(try keeps(chain, subject("x", days: 30)))
        let deep = String(repeating: "(", count: 64) + "age < 7" + String(repeating: ")", count: 64)
        #expect(try keeps(deep, subject("x")))
    }

    @Test func andOrParenthesesAndPrecedence() throws {
        let read = subject("Old news", days: 40, read: true)
        #expect(try keeps("unread = \"yes\" or age > 30", read))
        #expect(try !keeps("unread = \"yes\" and age > 30", read))
        // `and` binds tighter than `or`, as newsboat's grammar has it.
        #expect(try keeps("title = \"x\" and age > 1 or title =~ \"news\"", read))
        #expect(try !keeps("title = \"x\" and (age > 1 or title =~ \"news\")", read))
        #expect(try keeps("((title =~ \"old\"))", read))
        // An entry without a date is in no range and of no age.
        let undated = subject("Undated", days: nil)
        #expect(try !keeps("age < 1000", undated) && !keeps("age > 0", undated) && keeps("date = \"\"", undated))
    }

    /// Mistakes say at which column, and what was expected.
    @Test func errorsPointAtTheColumn() {
        let cases: [(String, String)] = [
            ("titel = \"x\"", "column 1: unknown attribute \"titel\""),
            ("title \"x\"", "column 7: expected an operator"),
            ("title = ", "column 9: expected a value after ="),
            ("title = \"open", "column 9: this quote is never closed"),
            ("(title = x", "column 11: expected \")\" to close the \"(\" at column 1"),
            ("title = x junk", "column 11: expected \"and\", \"or\" or the end"),
            ("title =~ \"(\"", "column 1: \"(\" is not a regular expression"),
            ("age between 5", "column 1: between takes a range"),
            ("age < soon", "column 1: age is a number of days"),
            ("", "column 1: expected an attribute"),
            (String(repeating: "(", count: 100_000) + "age < 1", "column 65: parentheses nested deeper than 64"),
        ]
        for (text, expected) in cases {
            do {
                _ = try FilterExpression.parse(text)
                Issue.record("\(text): parsed")
            } catch {
                #expect(error.message.hasPrefix(expected), "\(text): \(error.message)")
            }
        }
    }
}
