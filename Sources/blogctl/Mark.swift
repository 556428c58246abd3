import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Mark: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mark",
            abstract: "Mark posts read or unread.",
            discussion: """
                read marks a post read by itself; list shows unread posts with • and keeps only \
                them with --unread. Marks are kept in the library, $XDG_DATA_HOME/blogctl/library.db, \
                each change one transaction; no server is asked. Ids are checked against the list the last \
                blogctl list or ui saved: one not in it is an error (exit 66) and nothing is \
                marked. --all marks every post of that list.

                Examples:
                  blogctl mark --unread 1
                  blogctl mark --all
                  blogctl list --unread | cut -f1 | xargs blogctl mark --read
                """)

        @Flag(help: "Mark read (the default).")
        var read = false

        @Flag(help: "Mark unread.")
        var unread = false

        @Flag(help: "Every post of the last saved list.")
        var all = false

        @Argument(help: ArgumentHelp("Post ids.", valueName: "id"), completion: .custom { words, index, prefix in PostIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) })
        var ids: [String] = []

        func validate() throws {
            if read && unread { throw ValidationError("give --read or --unread, not both") }
            if all && !ids.isEmpty { throw ValidationError("give post ids or --all, not both") }
            if !all && ids.isEmpty { throw ValidationError("give at least one post id, or --all") }
        }

        @OptionGroup var server: ServerOption

        func run() throws {
            let count = try PostMarking.mark(ids, all: all, read: !unread, server: server.server)
            if all { Tool.blogctl.say("marked \(count) posts \(unread ? "unread" : "read")") }
        }
    }
}
