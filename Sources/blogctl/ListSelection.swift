import ArgumentParser
import BlogctlKit
import ToolboxKit
import BlogctlEngines

extension PostGrouping: ExpressibleByArgument {}
extension PostSorting: ExpressibleByArgument {}

/// `list`'s options in newsboat's terms: a filter expression, a tag, a query feed.
struct ListSelection: ParsableArguments {
    @Option(help: ArgumentHelp("Only posts the expression keeps, in newsboat's filter language: "
                               + "unread = \"yes\" and (title =~ \"swift\" or age < 7) (see FILTERS in the man page).",
                               valueName: "expr"))
    var filter: String?

    @Option(help: ArgumentHelp("Only the subscriptions with this tag (a folder of an OPML import; Tech also takes Tech/Dev Video).",
                               valueName: "tag"))
    var tag: String?

    @Option(help: ArgumentHelp("The entries of a query feed of the urls file (its \"query:NAME:EXPRESSION\" line), from every subscription.",
                               valueName: "name"))
    var query: String?

    func validate() throws {
        if let filter {
            do { _ = try FilterExpression.parse(filter) } catch { throw ValidationError("--filter: \(error.message)") }
        }
    }
}
