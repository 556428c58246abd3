import ArgumentParser
import BlogctlKit
import ToolboxKit

extension Blogctl {
    struct Mark: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mark",
            abstract: "Mark posts read or unread.",
            discussion: """
                read marks a post read by itself; list shows unread posts with • and keeps only \\
                them with --unread. Marks are kept in $XDG_DATA_HOME/blogctl/read.json, written \\
                atomically; no server is asked.

                Examples:
                  blogctl mark --unread 1
                  blogctl list --unread | cut -f1 | xargs blogctl mark --read
                """)

        @Flag(help: "Mark read (the default).")
        var read = false

        @Flag(help: "Mark unread.")
        var unread = false

        @Argument(help: ArgumentHelp("Post ids.", valueName: "id"))
        var ids: [String] = []

        func validate() throws {
            if read && unread { throw ValidationError("give --read or --unread, not both") }
            if ids.isEmpty { throw ValidationError("give at least one post id") }
        }

        func run() throws {
            let ids = try self.ids.map { id throws(ToolError) in try ResourceID.validate(id, kind: "post id") }
            try ReadMarks.standard().mark(ids, read: !unread)
        }
    }
}
