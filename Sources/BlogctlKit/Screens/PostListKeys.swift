import ScreenKit
import ToolboxKit

/// The keys of `blogctl ui`'s list of posts: what each does, the footer's hints and help.
enum PostListKeys {
    enum Action: Sendable, Equatable {
        case motion(Motion), open, arrange, filter, expression, unreadOnly, toggleRead, prefetch, reload, help, quit, back
        case nextUnread, previousUnread, markAllRead
    }

    static let table = KeyTable<Action>(
        Motion.bindings.map { .init($0.keys, $0.label, Action.motion($0.action)) } + [
            .init([.enter, .right], "read the post", .open, hint: "read"),
            .init([.character("o")], "arrange: group and sort (remembered)", .arrange, hint: "arrange"),
            .init([.character("/")], "filter by title, author, summary as you type; Enter also searches cached bodies", .filter,
                  hint: "filter"),
            .init([.character("F")], "filter by an expression: author =~ \"ada\", unread = \"yes\"", .expression),
            .init([.character("U")], "only unread posts, or all", .unreadOnly, hint: "unread"),
            .init([.character("u")], "mark read or unread", .toggleRead),
            .init([.character("n")], "the next unread post", .nextUnread),
            .init([.character("N")], "the previous unread post", .previousUnread),
            .init([.character("A")], "mark every post of the list read", .markAllRead),
            .init([.character("P")], "prefetch every post body in the background", .prefetch, hint: "prefetch"),
            .init([.character("r")], "reload the list from the server", .reload),
            .init([.character("?"), .function(1)], "this help", .help),
            .init([.escape], "back from search results, then clear the filters (never quits)", .back),
            .init([.character("q")], "quit", .quit, hint: "quit"),
        ])
}
