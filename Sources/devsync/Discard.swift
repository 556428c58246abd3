import ArgumentParser
import DevsyncKit
import ToolboxKit

extension Devsync {
    struct Discard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "discard",
            abstract: "Drop devices' local changes on purpose.",
            discussion: """
                Several ids, or every change with --all, are dropped in one transaction: all or \
                none (an id without a change drops nothing, exit 66). Asks once on a terminal; \
                scripts pass --yes.

                Examples:
                  devsync discard WWM-0001-12
                  devsync discard --all --yes
                """)

        @OptionGroup var store: StoreOptions
        @Flag(name: [.short, .long], help: "Do not ask.") var yes = false
        @Flag(help: "Every local change not yet through.") var all = false
        @Argument(help: ArgumentHelp("The device ids.", valueName: "id"), completion: .custom { words, index, prefix in DeviceIDCompletion.candidates(before: Array(words.prefix(index)), prefix: prefix) }) var ids: [String] = []

        func validate() throws {
            if all && !ids.isEmpty { throw ValidationError("give ids or --all, not both") }
            if !all && ids.isEmpty { throw ValidationError("give at least one device id, or --all") }
        }

        func run() async throws {
            let deviceStore = try store.open(for: Self.self)
            let ids = all ? try deviceStore.changedIDs()
                : try self.ids.map { id throws(ToolError) in try ResourceID.validate(id, kind: "device id") }
            guard !ids.isEmpty else {
                Tool.devsync.say("no local changes to discard")
                return
            }
            if !yes {
                guard Terminal.isTTY(0) else { throw ToolError.usage("refusing to discard without --yes: stdin is not a terminal") }
                let what = ids.count == 1 ? "the change to \(Terminal.sanitizeField(ids[0]))" : "\(ids.count) local changes"
                StandardError.writeRaw("devsync: discard \(what)? [y/N] ")
                guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                    Tool.devsync.say("kept")
                    return
                }
            }
            let dropped = try deviceStore.discardAll(ids)
            Tool.devsync.say(dropped == 1 ? "discarded the change to \(ids[0])" : "discarded \(dropped) changes")
        }
    }
}
