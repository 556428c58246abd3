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
            let ids = try self.ids.map { id throws(ToolError) in try ResourceID.validate(id, kind: "post id") }
            let listed = try PostCache.standard(server: try server.serverURL(tool: .blogctl)).savedListing()
            let chosen: [String]
            if all {
                guard let listed else { throw ToolError.missing("no saved list to mark: blogctl list saves one") }
                chosen = listed.map(\.id)
            } else {
                // Without a saved list there is nothing to check against: the ids are taken.
                if let listed, let unknown = ids.first(where: { id in !listed.contains { $0.id.utf8.elementsEqual(id.utf8) } }) {
                    throw ToolError.missing("no post \(unknown) in the list blogctl list saved; nothing was marked")
                }
                chosen = ids
            }
            try ReadMarks.standard(server: try server.serverURL(tool: .blogctl)).mark(chosen, read: !unread)
            if all { Tool.blogctl.say("marked \(chosen.count) posts \(unread ? "unread" : "read")") }
        }
    }
}
